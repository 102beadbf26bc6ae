"""Rooms, their seats, and the matches played there as a log of actions.

A round's state is never stored: it is rebuilt from its deal and its action log with the engine.
"""

import secrets
from datetime import datetime, timedelta
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import Ruleset
from games.validators import ROOM_NAME_MAX_LENGTH, validate_room_name_characters

PALARISTI_TARGETS = (251, 301, 351, 401)
CLASSIC_TARGET = 1000
CLASSIC_PLAYERS = (2, 3, 4)


def new_invite_token() -> str:
    """Draw a random, unguessable token for a room's share link."""
    return secrets.token_urlsafe(24)


def game_label(variant: str, players: int) -> str:
    """Name a room's game in the active language, e.g. "Classic, 3 players, to 1000"."""
    if variant == Room.Variant.CLASSIC:
        return _("Classic, %(players)s players, to 1000") % {"players": players}
    return str(_("Palaristi, 4 players"))


def default_room_name(owner_name: str) -> str:
    """Name a room its owner left unnamed, in the active language."""
    return _("%(name)s's table") % {"name": owner_name}


class Room(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("waiting for players")
        PLAYING = "playing", _("playing")
        # Its last match is over; the seated players may play another (a rematch).
        FINISHED = "finished", _("finished")
        CLOSED = "closed", _("closed")

    class Variant(models.TextChoices):
        # The bidding game of the kafenio ("tsaka tsaka"), four players to 251-401.
        PALARISTI = "palaristi", _("Palaristi")
        # The turned-up trump game, two to four players to 1000.
        CLASSIC = "classic", _("Classic")

    class BotLevel(models.TextChoices):
        EASY = "easy", _("easy")
        MEDIUM = "medium", _("medium")
        STRONG = "strong", _("strong")

    TARGETS = ((251, "251"), (301, "301"), (351, "351"), (401, "401"))
    PLAYERS = ((2, "2"), (3, "3"), (4, "4"))
    TURN_SECONDS = (
        (0, _("no limit")),
        (30, _("30 seconds")),
        (60, _("1 minute")),
        (120, _("2 minutes")),
    )

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="owned_rooms",
        verbose_name=_("owner"),
    )
    # Blank until the owner names the room: each reader then sees the default in their own
    # language, with the owner's name as it is today.
    name = models.CharField(
        _("name"),
        max_length=ROOM_NAME_MAX_LENGTH,
        blank=True,
        validators=[validate_room_name_characters],
        help_text=_("Leave empty to call the room after its owner, as in “Maria's table”."),
    )
    variant = models.CharField(
        _("game"), max_length=10, choices=Variant.choices, default=Variant.PALARISTI
    )
    players = models.PositiveSmallIntegerField(_("players"), choices=PLAYERS, default=4)
    target = models.PositiveSmallIntegerField(
        _("target"), choices=(*TARGETS, (CLASSIC_TARGET, str(CLASSIC_TARGET))), default=301
    )
    bot_level = models.CharField(
        _("computer level"), max_length=8, choices=BotLevel.choices, default=BotLevel.MEDIUM
    )
    assist = models.BooleanField(
        _("assist"),
        default=False,
        help_text=_("Call pilotta, announce and show automatically."),
    )
    turn_seconds = models.PositiveSmallIntegerField(
        _("time per turn"), choices=TURN_SECONDS, default=0
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    invite_token = models.CharField(
        _("invite token"), max_length=64, unique=True, default=new_invite_token
    )
    invite_created = models.DateTimeField(_("invite link made"), default=timezone.now)
    # Counts the table's changes, so each connection renders every change once, in order.
    version = models.PositiveIntegerField(_("version"), default=0)
    # When the version last moved: the sweep tells tables that have just finished or closed
    # of a change they missed, and leaves the older ones alone.
    changed = models.DateTimeField(_("last changed"), null=True, blank=True, editable=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("room")
        verbose_name_plural = _("rooms")
        ordering: ClassVar = ["-created"]
        indexes: ClassVar = [
            # The table sweep reads the rooms in use every few seconds, among all there were.
            models.Index(
                fields=["status"],
                condition=Q(status__in=["open", "playing"]),
                name="games_room_in_use",
            ),
            models.Index(fields=["changed"], name="games_room_changed"),
        ]
        constraints: ClassVar = [
            # Palaristi: four players to 251-401; classic: two to four players to 1000.
            models.CheckConstraint(
                condition=(
                    Q(variant="palaristi", players=4, target__in=PALARISTI_TARGETS)
                    | Q(variant="classic", players__in=CLASSIC_PLAYERS, target=CLASSIC_TARGET)
                ),
                name="games_room_rules_valid",
                violation_error_message=_(
                    "Palaristi is played by four to 251-401 points; Classic by two to four to 1000."
                ),
            ),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def is_classic(self) -> bool:
        """Say whether the room plays the classic, turned-up trump game."""
        return self.variant == self.Variant.CLASSIC

    @property
    def game(self) -> str:
        """Name the room's game in the active language."""
        return game_label(self.variant, self.players)

    @property
    def seat_numbers(self) -> range:
        """Return the room's seats: 0 to ``players - 1``."""
        return range(self.players)

    def ruleset(self) -> Ruleset:
        """Return the engine's rules for this room's game."""
        if self.is_classic:
            return Ruleset.classic(self.players)
        return Ruleset(target=self.target)

    @property
    def invite_expires_at(self) -> datetime:
        """Return the moment the share link stops working, as an invitation's does."""
        return self.invite_created + timedelta(days=settings.INVITATION_MAX_AGE_DAYS)

    @property
    def is_invite_expired(self) -> bool:
        """Tell whether the share link is too old to use."""
        return timezone.now() >= self.invite_expires_at

    @property
    def title(self) -> str:
        """Return the room's name: the owner's choice, else the default in the active language."""
        return self.name or default_room_name(self.owner.table_name)


class RoomSeat(models.Model):
    """One of a room's chairs (as many as it has players): empty, a player, or a computer player.

    ``away`` marks a player whose turns a computer plays for now (time ran out, or they left).
    """

    room = models.ForeignKey(
        Room, on_delete=models.CASCADE, related_name="seats", verbose_name=_("room")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="room_seats",
        verbose_name=_("player"),
    )
    is_bot = models.BooleanField(_("computer player"), default=False)
    away = models.BooleanField(_("away"), default=False)
    disconnected_at = models.DateTimeField(_("disconnected at"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering: ClassVar = ["room", "seat"]
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["room", "seat"], name="games_roomseat_unique_seat"),
            models.UniqueConstraint(
                fields=["room", "user"],
                condition=Q(user__isnull=False),
                name="games_roomseat_unique_user",
            ),
            models.CheckConstraint(condition=Q(seat__lte=3), name="games_roomseat_seat_range"),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(is_bot=False),
                name="games_roomseat_player_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.room_id}:{self.seat}"

    @property
    def is_empty(self) -> bool:
        """Say whether nobody sits here."""
        return self.user_id is None and not self.is_bot

    @property
    def bot_plays(self) -> bool:
        """Say whether a computer plays this seat's turns now."""
        return self.is_bot or self.away


class Match(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    room = models.ForeignKey(
        Room, on_delete=models.CASCADE, related_name="matches", verbose_name=_("room")
    )
    ruleset = models.JSONField(_("ruleset"))
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"))
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PLAYING
    )
    winner = models.PositiveSmallIntegerField(_("winning team"), null=True, blank=True)
    totals = models.JSONField(_("totals"), default=list)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering: ClassVar = ["-created"]

    def __str__(self) -> str:
        return _("Match %(id)s") % {"id": self.pk}


class Round(models.Model):
    """One deal of a match; ``hands`` (and a classic deal's ``stock``) never leave the server.

    A classic deal stores each seat's first five cards in ``hands``, the ``turned`` card and the
    ``stock`` (the rest of the deck, top first); a palaristi deal the eight cards, no turned card.

    ``turn_*`` say when the turn at log position ``turn_seq`` is due to be played by the computer
    (its pacing, or the player's clock, ran out), so that a turn whose task was lost is found.
    """

    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        CANCELLED = "cancelled", _("cancelled")
        FINISHED = "finished", _("finished")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    hands = models.JSONField(_("hands"))
    turned = models.CharField(_("turned card"), max_length=2, blank=True, default="")
    stock = models.CharField(_("stock"), max_length=64, blank=True, default="")
    deck_handling = models.CharField(_("deck handling"), max_length=8, default="shuffle")
    cut = models.PositiveSmallIntegerField(_("cut"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    result = models.JSONField(_("result"), null=True, blank=True)
    contract = models.JSONField(_("contract"), null=True, blank=True)
    turn_seq = models.PositiveSmallIntegerField(_("turn"), default=0)
    turn_due_at = models.DateTimeField(_("turn due at"), null=True, blank=True)
    turn_clock = models.BooleanField(_("turn clock ran out"), default=False)
    turn_swept_at = models.DateTimeField(_("turn requeued at"), null=True, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering: ClassVar = ["match", "number"]
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["match", "number"], name="games_round_unique_number"),
        ]
        indexes: ClassVar = [
            models.Index(
                fields=["turn_due_at"],
                condition=Q(status="playing"),
                name="games_round_turn_due",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.number}"


class RoundAction(models.Model):
    """One entry of a round's log, in the hand-record format."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="actions", verbose_name=_("round")
    )
    seq = models.PositiveSmallIntegerField(_("sequence"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.JSONField(_("action"))
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("played by"),
    )
    is_bot = models.BooleanField(_("played by the computer"), default=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("action")
        verbose_name_plural = _("actions")
        ordering: ClassVar = ["round", "seq"]
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["round", "seq"], name="games_roundaction_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.round_id}#{self.seq}"


class RoomInvitation(models.Model):
    """A friend asked to a room; they may take a free seat without the share link."""

    room = models.ForeignKey(
        Room, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("room")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="room_invitations",
        verbose_name=_("invited player"),
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("invited by"),
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("room invitation")
        verbose_name_plural = _("room invitations")
        ordering: ClassVar = ["-created"]
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["room", "user"], name="games_roominvitation_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.room_id}:{self.user_id}"
