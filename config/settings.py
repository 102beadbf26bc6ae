"""Settings for Pilotta.io, read from the environment.

With nothing set the site runs on an embedded default: a SQLite file, the in-memory channel
layer, a local-memory cache, console email and a Celery worker thread inside the web process.
``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL, Redis (channel layer, Celery broker,
cache) and separate Celery workers.
"""

from pathlib import Path
from typing import Any, Literal

import dj_database_url
from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _
from kombu import Exchange, Queue

from config.env import channel_layer_host, email_settings, env_bool, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=True)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "insecure-development-key-only-for-debug"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "channels",
    "django_htmx",
    "csp",
    "template_partials",
    "allauth",
    "allauth.account",
    "accounts",
    "lobby",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.csp.SiteCSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.PreferredLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.GuestBoundaryMiddleware",
    "config.error_pages.MethodNotAllowedPageMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
SITE_ID = 1

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.play_now",
            ],
        },
    },
]

# Database: PostgreSQL through psycopg 3 when DATABASE_URL is set, otherwise a local SQLite file.
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    # Under ASGI requests run in varying threads, so connections come from a pool (psycopg's)
    # rather than persisting per thread; opening one costs a few milliseconds per call.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    if env_bool("DATABASE_POOL", default=True):
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": int(env_str("DATABASE_POOL_MIN", "2")),
            "max_size": int(env_str("DATABASE_POOL_MAX", "20")),
            "timeout": 10,
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # Web requests, the channel consumers and the embedded Celery worker share the file.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis carries the channel layer, the Celery broker and the cache when REDIS_URL is set.
REDIS_URL = env_str("REDIS_URL")
GROUP_EXPIRY_SECONDS = 300
GROUP_REJOIN_SECONDS = 60
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # A process killed with sockets open leaves their channels in the tables' groups;
            # they drop out after GROUP_EXPIRY_SECONDS, since live sockets re-join every minute.
            "CONFIG": {
                "hosts": [channel_layer_host(REDIS_URL)],
                "group_expiry": GROUP_EXPIRY_SECONDS,
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "config.cache.SharedClientRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "pilotta"),
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    # A task held by a worker that dies goes back to the queue after this. It must outlast the
    # longest countdown (the 2-minute turn clock plus the pause between rounds), or a waiting
    # task would be handed out twice; the table's sweeper finds a lost turn far sooner.
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, float] = {"visibility_timeout": 600}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # Celery's in-memory transport, consumed by a worker thread inside the web process.
    CELERY_BROKER_URL = "memory://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.05}

# Play now without an account: "0" hides the button and refuses new guests.
GUEST_PLAY = env_bool("GUEST_PLAY", default=True)

CELERY_EMBEDDED_WORKER = CELERY_BROKER_URL.startswith("memory://")
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A forked pool process warms the computer players up before it reports for work, and compiling
# them on a cold cache takes about 15 s of CPU. Celery kills a process that takes over 4 s to
# report, so a process replaced during that compile would be killed again and again.
CELERY_WORKER_PROC_ALIVE_TIMEOUT = 180.0
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# The strong computers' searches take up to half a second of CPU per card: they have a queue of
# their own, so that cheap moves (easy, medium, the clock) never wait behind them. A worker
# started without -Q serves both; production runs one worker per queue (see README).
CELERY_TASK_DEFAULT_QUEUE = "celery"
STRONG_BOT_QUEUE = "strong"
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name), routing_key=name)
    for name in (CELERY_TASK_DEFAULT_QUEUE, STRONG_BOT_QUEUE)
)
# Beat runs the table's sweeper every few seconds (inside the web process in the embedded default,
# `celery -A config beat` beside the workers otherwise); its schedule needs no file.
TABLE_SWEEP_SECONDS = float(env_str("TABLE_SWEEP_SECONDS", "5"))
CELERY_BEAT_SCHEDULER = "celery.beat:Scheduler"
CELERY_BEAT_SCHEDULE = {
    "table-sweep": {
        "task": "games.tasks.table_sweep",
        "schedule": TABLE_SWEEP_SECONDS,
        "options": {"expires": TABLE_SWEEP_SECONDS * 2},
    },
    # Guests and their tables go 7 days after their last activity (games.services.guests).
    "guests-sweep": {
        "task": "games.tasks.guests_sweep",
        "schedule": 60 * 60,
        "options": {"expires": 60 * 60},
    },
}

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "lobby:rooms"

ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}
# allauth's defaults, kept in the cache, plus the emails a player may send to strangers.
# Failed logins lock out per address (10 a minute) and per account (5 in 5 minutes); the
# address is the client's as config.clientip reads it, never the proxy's.
ACCOUNT_RATE_LIMITS: dict[str, str] | bool = {
    "invite_by_email": "20/h/user",
    "login_failed": "10/m/ip,5/5m/key",
}

# "invite": only holders of an invitation can sign up (the others join the waitlist); "open".
SIGNUP_MODE = env_str("SIGNUP_MODE", "invite")
if SIGNUP_MODE not in {"open", "invite"}:
    raise RuntimeError(f"SIGNUP_MODE must be 'open' or 'invite', not {SIGNUP_MODE!r}")
INVITATION_MAX_AGE_DAYS = int(env_str("INVITATION_MAX_AGE_DAYS", "14"))

LANGUAGE_CODE = "el"
LANGUAGES = [
    ("el", _("Greek")),
    ("en", _("English")),
    ("fr", _("French")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Nicosia"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

for _name, _value in email_settings(env_str("EMAIL_URL")).items():
    globals()[_name] = _value
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Pilotta.io <hello@pilotta.io>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Behind a TLS-terminating proxy, which must set X-Forwarded-Proto (see README).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# How many proxies in front append to X-Forwarded-For; per-IP rate limits read the client's
# address that many entries from the right (0: the connecting address, as without a proxy).
TRUSTED_PROXY_COUNT = int(env_str("TRUSTED_PROXY_COUNT", "0" if DEBUG else "1"))
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = int(env_str("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
# Every script and style comes from our own static files: no inline code, no eval, no frames.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "connect-src": [SELF],  # plus this host's ws:/wss: origin, see config.csp
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Cookies go along with top-level navigations to the site, never with other sites' requests.
SESSION_COOKIE_SAMESITE: Literal["Lax"] = "Lax"
CSRF_COOKIE_SAMESITE: Literal["Lax"] = "Lax"
LANGUAGE_COOKIE_SAMESITE: Literal["Lax"] = "Lax"
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# The live table: a computer's pause before each move, the pause after a round (to read its
# summary), and how long a disconnected player keeps their turns before a computer plays them.
BOT_PACING_SECONDS = float(env_str("BOT_PACING_SECONDS", "0.8"))
ROUND_PAUSE_SECONDS = float(env_str("ROUND_PAUSE_SECONDS", "3"))
DISCONNECT_GRACE_SECONDS = float(env_str("DISCONNECT_GRACE_SECONDS", "60"))
# A live socket renews its lease three times per this; a killed process's sockets stop counting
# within it. A computer's turn overdue by more than TURN_OVERDUE_SECONDS is queued again.
PRESENCE_TTL_SECONDS = float(env_str("PRESENCE_TTL_SECONDS", "10"))
TURN_OVERDUE_SECONDS = float(env_str("TURN_OVERDUE_SECONDS", "5"))

# One handler, on the root: every line is printed once. Django's default logging gives the
# "django" logger a console handler of its own (with DEBUG on) that also propagates to the root,
# which printed each request and each server message twice; "handlers": [] removes it.
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # Beat sends the table's sweeper every few seconds: say so only when something is wrong.
        "celery.beat": {"level": "WARNING"},
    },
}
if CELERY_EMBEDDED_WORKER:
    # The embedded worker shares the console with runserver; its task lines would drown it.
    LOGGING["loggers"]["celery.app.trace"] = {"level": "WARNING"}
