"""The table settings a round and a match are played under."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from .cards import DECK, SHORT_DECK, Card, Seat, side_count, side_of
from .errors import EngineError

TARGETS = (251, 301, 351, 401)
CLASSIC_TARGET = 1000
DECK_HANDLINGS = ("shuffle", "table")
VARIANTS = ("tsaka", "classic")
CLASSIC_PLAYERS = (2, 3, 4)

DeckHandling = Literal["shuffle", "table"]
#: ``tsaka`` is the palaristi bidding game (sections 1-8); ``classic`` the turned-up trump game.
Variant = Literal["tsaka", "classic"]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Table settings; a variant is a value here, not a fork of the code.

    The palaristi game (``tsaka``) is for four players to 251-401 points. The classic game is
    for 2, 3 or 4 players to 1000 (its target may be left out) and always shuffles; partner
    protection follows from it: the classic game with four players has it, nothing else does.
    """

    target: int = 301
    deck_handling: DeckHandling = "shuffle"
    variant: Variant = "tsaka"
    partner_protection: bool = False
    players: int = 4

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise EngineError(f"variant must be one of {VARIANTS}, not {self.variant!r}")
        if self.deck_handling not in DECK_HANDLINGS:
            raise EngineError(f"deck_handling must be one of {DECK_HANDLINGS}")
        if type(self.partner_protection) is not bool:
            raise EngineError("partner_protection must be true or false")
        if self.variant == "classic":
            self._check_classic()
        else:
            self._check_tsaka()

    def _check_tsaka(self) -> None:
        if type(self.target) is not int or self.target not in TARGETS:
            raise EngineError(f"target must be one of {TARGETS}, not {self.target!r}")
        if type(self.players) is not int or self.players != 4:
            raise EngineError("the palaristi game is for four players")
        if self.partner_protection:
            raise EngineError("partner protection belongs to the classic game of four")

    def _check_classic(self) -> None:
        if type(self.players) is not int or self.players not in CLASSIC_PLAYERS:
            raise EngineError(f"the classic game is for {CLASSIC_PLAYERS} players")
        if type(self.target) is not int or self.target != CLASSIC_TARGET:
            raise EngineError(f"the classic game is played to {CLASSIC_TARGET}")
        if self.deck_handling != "shuffle":
            raise EngineError("the classic game always shuffles")
        if self.partner_protection != (self.players == 4):
            raise EngineError("the classic game has partner protection with four players only")

    @classmethod
    def classic(cls, players: int = 4) -> Ruleset:
        """Return the classic game's ruleset for ``players`` players."""
        return cls(
            target=CLASSIC_TARGET,
            variant="classic",
            players=players,
            partner_protection=players == 4,
        )

    @classmethod
    def from_dict(cls, data: Any) -> Ruleset:
        """Read a ruleset; missing keys take their defaults, unknown keys are refused.

        A classic ruleset may leave out its target and partner protection: both follow from it.
        """
        if not isinstance(data, dict):
            raise EngineError(f"a ruleset must be an object, not {data!r}")
        known = {field.name for field in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise EngineError(f"unknown ruleset keys: {sorted(unknown)}")
        if data.get("variant") == "classic":
            players = data.get("players", 4)
            data = {"target": CLASSIC_TARGET, "partner_protection": players == 4, **data}
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        """Write the ruleset as a JSON-ready dict (the palaristi game's as it always was)."""
        data = asdict(self)
        if self.variant == "tsaka":
            del data["players"]
        return data

    # What the variant decides.

    @property
    def is_classic(self) -> bool:
        """Say whether this is the classic, turned-up trump game."""
        return self.variant == "classic"

    @property
    def sides(self) -> int:
        """Return how many sides score: two teams with four players, else each player."""
        return side_count(self.players)

    def side_of(self, seat: Seat) -> int:
        """Return the side a seat plays for: its team with four players, else itself."""
        return side_of(seat, self.players)

    def next_seat(self, seat: Seat) -> Seat:
        """Return the seat that acts after ``seat``."""
        return (seat + 1) % self.players

    @property
    def deck(self) -> tuple[Card, ...]:
        """Return the cards in play: 32, or the 24 from the Nine up with two or three players."""
        return DECK if self.players == 4 else SHORT_DECK


#: The default table: 301 points, a fresh shuffle every round.
DEFAULT_RULESET = Ruleset()
