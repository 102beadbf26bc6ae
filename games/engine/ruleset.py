"""The table settings a round and a match are played under."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from .errors import EngineError

TARGETS = (251, 301, 351, 401)
DECK_HANDLINGS = ("shuffle", "table")
VARIANTS = ("tsaka",)

DeckHandling = Literal["shuffle", "table"]
Variant = Literal["tsaka"]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Table settings; a variant is a value here, not a fork of the code.

    ``variant`` and ``partner_protection`` make room for the classic game of RULES.md §9,
    which is not implemented yet: only ``"tsaka"`` without partner protection is accepted.
    """

    target: int = 301
    deck_handling: DeckHandling = "shuffle"
    variant: Variant = "tsaka"
    partner_protection: bool = False

    def __post_init__(self) -> None:
        if type(self.target) is not int or self.target not in TARGETS:
            raise EngineError(f"target must be one of {TARGETS}, not {self.target!r}")
        if self.deck_handling not in DECK_HANDLINGS:
            raise EngineError(f"deck_handling must be one of {DECK_HANDLINGS}")
        if self.variant not in VARIANTS:
            raise EngineError(f"variant must be one of {VARIANTS}, not {self.variant!r}")
        if self.partner_protection is not False:
            raise EngineError("partner protection belongs to the classic variant (not yet)")

    @classmethod
    def from_dict(cls, data: Any) -> Ruleset:
        """Read a ruleset; missing keys take their defaults, unknown keys are refused."""
        if not isinstance(data, dict):
            raise EngineError(f"a ruleset must be an object, not {data!r}")
        known = {field.name for field in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise EngineError(f"unknown ruleset keys: {sorted(unknown)}")
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        """Write the ruleset as a JSON-ready dict."""
        return asdict(self)


#: The default table: 301 points, a fresh shuffle every round.
DEFAULT_RULESET = Ruleset()
