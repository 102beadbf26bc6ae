"""Read the site's configuration from the environment."""

import os
from urllib.parse import unquote, urlsplit


def env_str(name: str, default: str = "") -> str:
    """Return the variable's value, or the default when it is unset or empty."""
    return os.environ.get(name, "").strip() or default


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean written as 1/0, true/false, yes/no or on/off."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ValueError(f"{name} must be a boolean, not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list."""
    value = env_str(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


# Prints each email decoded (see config.mail), where Django's own prints the MIME source.
CONSOLE_EMAIL_BACKEND = "config.mail.EmailBackend"


def email_settings(url: str) -> dict[str, object]:
    """Turn an EMAIL_URL such as smtp+tls://user:pass@host:587 into Django settings."""
    if not url:
        return {"EMAIL_BACKEND": CONSOLE_EMAIL_BACKEND}
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "console":
        return {"EMAIL_BACKEND": CONSOLE_EMAIL_BACKEND}
    if scheme == "locmem":
        return {"EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
    if scheme not in {"smtp", "smtp+tls", "smtps", "smtp+ssl"}:
        raise ValueError(f"EMAIL_URL has an unknown scheme: {scheme!r}")
    implicit_tls = scheme in {"smtps", "smtp+ssl"}
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname or "localhost",
        "EMAIL_PORT": parts.port or (465 if implicit_tls else 587 if scheme == "smtp+tls" else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": scheme == "smtp+tls",
        "EMAIL_USE_SSL": implicit_tls,
    }


# redis-py's read timeout on the channel layer's connections. channels-redis waits up to 5 s in
# each blocking read of a socket's messages; redis-py's own default timeout is also 5 s, so a
# quiet socket's read timed out and daphne closed it with 1011. This leaves ample room.
CHANNEL_LAYER_SOCKET_TIMEOUT = 30.0
# redis-py's asyncio pool allows 100 connections unless told otherwise and then raises. Sockets
# that close or open together (a proxy restart, a server's end) each leave or join their table's
# group at once: a thousand per process keeps that burst far under Redis's 10,000 clients.
CHANNEL_LAYER_MAX_CONNECTIONS = 1000


def channel_layer_host(url: str) -> dict[str, object]:
    """Return one Redis host of the channel layer, as channels-redis takes it.

    Keepalive and the periodic health check find a connection that died quietly (a restarted
    Redis, a dropped NAT entry) before a message is lost on it.
    """
    return {
        "address": url,
        "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT,
        "socket_connect_timeout": 5.0,
        "socket_keepalive": True,
        "health_check_interval": 30,
        "max_connections": CHANNEL_LAYER_MAX_CONNECTIONS,
    }
