"""The waitlist signup form, with a honeypot field that people never see."""

from django import forms
from django.conf import settings
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _


def language_choices() -> list[tuple[str, str]]:
    """Offer each language in its own name, so everyone can find theirs."""
    return [(code, get_language_info(code)["name_local"]) for code, _name in settings.LANGUAGES]


class WaitlistForm(forms.Form):
    email = forms.EmailField(
        label=_("Email address"),
        max_length=254,
        error_messages={
            "required": _("Please enter your email address."),
            "invalid": _("This does not look like an email address. Please check it."),
        },
        widget=forms.EmailInput(attrs={"autocomplete": "email", "placeholder": "name@example.com"}),
    )
    language = forms.ChoiceField(
        label=_("Preferred language"),
        choices=language_choices,
        error_messages={"invalid_choice": _("Please choose one of the languages offered.")},
    )
    # Hidden by CSS and from assistive technology; only bots fill it in.
    website = forms.CharField(
        label=_("Leave this field empty"),
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    def is_bot(self) -> bool:
        """Say whether the honeypot was filled in."""
        return bool(self.data.get("website", "").strip())
