"""The form that opens a room."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Room


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
