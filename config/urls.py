"""URLs: language-independent endpoints first, then every page under its language prefix."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.http import HttpRequest, HttpResponseRedirect
from django.templatetags.static import static
from django.urls import URLPattern, URLResolver, include, path

from accounts import views as accounts_views
from config import health, i18n


def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """Point browsers that ask for /favicon.ico at the site's icon."""
    return HttpResponseRedirect(static("icons/icon-32.png"))


urlpatterns: list[URLPattern | URLResolver] = [
    path("healthz", health.healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("i18n/setlang/", i18n.set_language, name="set_language"),
]

urlpatterns += i18n_patterns(
    path("admin/", admin.site.urls),
    # Before allauth's own: the same login, answering 429 to a locked-out attempt.
    path("accounts/login/", accounts_views.login, name="account_login"),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("", include("lobby.urls")),
    path("", include("games.urls")),
)
