"""The language switcher."""

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Switch language and stay on the same page.

    Django translates `next` only when it resolves in the active language, and the active
    language of this unprefixed URL comes from the cookie or the browser, not from the page.
    """
    next_url = request.POST.get("next", "")
    page_language = translation.get_language_from_path(next_url.split("?", 1)[0])
    if page_language:
        translation.activate(page_language)
    return django_set_language(request)
