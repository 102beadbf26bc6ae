"""Forms for signup, the profile, account deletion and finding friends."""

from typing import Any

from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.validators import (
    DISPLAY_NAME_MAX_LENGTH,
    normalize_display_name,
    validate_display_name,
)


class DisplayNameField(forms.CharField):
    """The public name: trimmed, single-spaced and checked against the naming rules."""

    default_validators = [validate_display_name]

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", _("Display name"))
        kwargs.setdefault("max_length", DISPLAY_NAME_MAX_LENGTH)
        kwargs.setdefault(
            "help_text",
            _("Shown to the other players at the table. 3 to 30 letters, digits, spaces, . _ -"),
        )
        super().__init__(**kwargs)
        self.widget.attrs.update({"autocomplete": "nickname", "autocapitalize": "off"})

    def to_python(self, value: Any) -> str:
        return normalize_display_name(super().to_python(value) or "")


def display_name_is_taken(name: str, *, exclude: User | None = None) -> bool:
    """Tell whether another account already uses this name, whatever its case."""
    users = User.objects.filter(display_name__iexact=name)
    if exclude is not None:
        users = users.exclude(pk=exclude.pk)
    return users.exists()


class SignupForm(AllauthSignupForm):
    """allauth's signup form with the display name the table will show."""

    display_name = DisplayNameField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.order_fields(["email", "display_name", "password1", "password2"])

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"]
        if display_name_is_taken(name):
            raise forms.ValidationError(_("This display name is taken."), code="taken")
        return name


class ProfileForm(forms.Form):
    """The player's public name and preferred language."""

    display_name = DisplayNameField()
    preferred_language = forms.ChoiceField(
        label=_("Preferred language"),
        help_text=_("Pages and emails use it after you log in."),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {"display_name": user.display_name, "preferred_language": user.preferred_language},
        )
        super().__init__(*args, **kwargs)
        self.user = user
        field = self.fields["preferred_language"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = User._meta.get_field("preferred_language").choices or []

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"]
        if display_name_is_taken(name, exclude=self.user):
            raise forms.ValidationError(_("This display name is taken."), code="taken")
        return name


class AccountDeleteForm(forms.Form):
    """Confirm the deletion of one's account with the password."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("This password is not correct."), code="wrong_password")
        return password


class PlayerSearchForm(forms.Form):
    q = forms.CharField(
        label=_("Display name"),
        max_length=DISPLAY_NAME_MAX_LENGTH,
        required=False,
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )


class InviteByEmailForm(forms.Form):
    email = forms.EmailField(
        label=_("Email address"),
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
    )
