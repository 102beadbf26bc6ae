"""The forms that open a room (by hand in the lobby, or at once with Play now) and rename it."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import CLASSIC_TARGET, Room
from games.validators import ROOM_NAME_MAX_LENGTH, clean_room_name


class RoomForm(forms.Form):
    """A new room's settings: the game, its players (the classic game only), target and more.

    Palaristi is played by four to 251-401; Classic by two, three or four to 1000. A field
    that does not apply to the chosen game may be left out (the page's script leaves it out);
    sent with a value the game does not allow, it is refused rather than quietly changed.
    """

    variant = forms.ChoiceField(
        label=_("Game"),
        choices=Room.Variant.choices,
        initial=Room.Variant.PALARISTI,
        required=False,
        widget=forms.RadioSelect(attrs={"data-room-variant": ""}),
    )
    players = forms.TypedChoiceField(
        label=_("Players (Classic)"),
        choices=Room.PLAYERS,
        coerce=int,
        initial=4,
        required=False,
        empty_value=None,
        widget=forms.Select(attrs={"data-variant-only": Room.Variant.CLASSIC}),
    )
    target = forms.TypedChoiceField(
        label=_("Play to"),
        choices=(*Room.TARGETS, (CLASSIC_TARGET, _("1000 (Classic)"))),
        coerce=int,
        initial=301,
        required=False,
        empty_value=None,
        widget=forms.Select(attrs={"data-variant-only": Room.Variant.PALARISTI}),
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

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if "variant" in cleaned and not cleaned["variant"]:
            cleaned["variant"] = Room.Variant.PALARISTI
        variant = cleaned.get("variant")
        players, target = cleaned.get("players"), cleaned.get("target")
        if variant == Room.Variant.CLASSIC:
            if target not in (None, CLASSIC_TARGET):
                self.add_error("target", _("Classic is played to 1000."))
            cleaned["target"] = CLASSIC_TARGET
            cleaned["players"] = 4 if players is None else players
        elif variant == Room.Variant.PALARISTI:
            if players not in (None, 4):
                self.add_error("players", _("Palaristi is played by four players."))
            if target == CLASSIC_TARGET:
                self.add_error("target", _("Palaristi is played to 251, 301, 351 or 401."))
            cleaned["players"] = 4
            cleaned["target"] = 301 if target is None else target
        return cleaned


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
