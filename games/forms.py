"""The forms that open a room (by hand in the lobby, or at once with Play now) and rename it."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Room
from games.validators import ROOM_NAME_MAX_LENGTH, clean_room_name


class RoomForm(forms.Form):
    target = forms.TypedChoiceField(
        label=_("Play to"), choices=Room.TARGETS, coerce=int, initial=301
    )
    bot_level = forms.ChoiceField(
        label=_("Computer players"), choices=Room.BotLevel.choices, initial=Room.BotLevel.MEDIUM
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Time per turn"), choices=Room.TURN_SECONDS, coerce=int, initial=0
    )
    assist = forms.BooleanField(
        label=_("Assist: call pilotta, announce and show for me"), required=False
    )


class PlayNowForm(forms.Form):
    """Play now's choices, each optional: one tap with nothing chosen plays medium to 301."""

    level = forms.ChoiceField(
        label=_("Computer players"),
        choices=Room.BotLevel.choices,
        initial=Room.BotLevel.MEDIUM,
        required=False,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": _("Please choose easy, medium or strong.")},
    )
    target = forms.TypedChoiceField(
        label=_("Play to"),
        choices=Room.TARGETS,
        coerce=int,
        initial=301,
        required=False,
        empty_value=None,
        error_messages={"invalid_choice": _("Please choose one of the targets offered.")},
    )

    def clean_level(self) -> str:
        return self.cleaned_data["level"] or Room.BotLevel.MEDIUM

    def clean_target(self) -> int:
        target: int | None = self.cleaned_data["target"]
        return 301 if target is None else target


class RoomNameForm(forms.Form):
    """The owner's new name for a room."""

    # Neither stripped nor cut by the field: clean_room_name sees the text as typed.
    name = forms.CharField(
        label=_("Room name"),
        strip=False,
        required=False,
        widget=forms.TextInput(attrs={"maxlength": ROOM_NAME_MAX_LENGTH}),
    )

    def __init__(self, *args: Any, placeholder: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The default name shows as a hint, not as a value: saved, it would lose its language.
        self.fields["name"].widget.attrs["placeholder"] = placeholder

    def clean_name(self) -> str:
        return clean_room_name(self.cleaned_data["name"])
