"""Move a player to their preferred language: URLs and the language cookie."""

from django.conf import settings
from django.http import HttpResponseBase
from django.urls import is_valid_path, translate_url
from django.utils import translation


def url_in_language(url: str, language: str) -> str:
    """Return the same page under the given language's prefix, when it has one."""
    if translation.get_language_from_path(url.split("?", 1)[0]):
        return translate_url(url, language)
    if not url.startswith("/"):
        return url
    prefixed = f"/{language}{url}"
    # i18n_patterns only resolve the active language's prefix.
    with translation.override(language):
        return prefixed if is_valid_path(prefixed.split("?", 1)[0]) else url


def url_without_language(url: str) -> str:
    """Return the page's URL with no language prefix, which sends each visitor on to their own
    language (LocaleMiddleware: the language cookie, else the browser's languages)."""
    language = translation.get_language_from_path(url.split("?", 1)[0])
    if not language:
        return url
    return url.removeprefix(f"/{language}")


def set_language_cookie(response: HttpResponseBase, language: str) -> None:
    """Remember the language the way Django's language switcher does."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
