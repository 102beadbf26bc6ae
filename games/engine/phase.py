"""The phases of a round."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where a round stands; a cancelled round was passed out by all four players."""

    AUCTION = "auction"
    PLAY = "play"
    CANCELLED = "cancelled"
    FINISHED = "finished"
