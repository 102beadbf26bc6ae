"""Errors raised by the engine, each a ValueError with a machine-readable cause."""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Say why an action is illegal; the site translates these codes."""

    #: The round is over (finished or cancelled): nobody may act.
    ROUND_OVER = "round_over"
    #: Another seat is to act.
    NOT_YOUR_TURN = "not_your_turn"
    #: The action belongs to another phase (a card during the auction, a bid during play).
    WRONG_PHASE = "wrong_phase"
    #: The bid is not above the current highest bid.
    BID_TOO_LOW = "bid_too_low"
    #: The bid is not a multiple of 10 between 80 and 400.
    BID_OUT_OF_RANGE = "bid_out_of_range"
    #: The game is closed: nobody may bid any more.
    BID_AFTER_CLOSE = "bid_after_close"
    #: Closing needs a highest bid of the other team and a game not closed yet.
    CANNOT_CLOSE = "cannot_close"
    #: Re-closing needs a close against your own team's bid, and happens once.
    CANNOT_RECLOSE = "cannot_reclose"
    #: The action belongs to the other game: bids and closes to palaristi, taking to classic.
    NOT_IN_THIS_GAME = "not_in_this_game"
    #: Taking the turned card's suit is for the first round of taking only.
    CANNOT_TAKE = "cannot_take"
    #: Naming a trump is for the second round of taking only.
    CANNOT_NAME = "cannot_name"
    #: The turned card's suit was refused in the first round: the second names another suit.
    NAME_TURNED_SUIT = "name_turned_suit"
    #: The card is not in the player's hand (any more).
    CARD_NOT_IN_HAND = "card_not_in_hand"
    #: The player holds the led suit and must play it.
    MUST_FOLLOW_SUIT = "must_follow_suit"
    #: Trump was led: the player must beat the highest trump on the trick, and can.
    MUST_BEAT_TRUMP = "must_beat_trump"
    #: Void in the led suit with no trump on the trick yet: the player must play a trump.
    MUST_TRUMP = "must_trump"
    #: Void in the led suit, a trump is on the trick: the player must play a higher trump, and can.
    MUST_OVERTRUMP = "must_overtrump"
    #: Void in the led suit, a higher trump is on the trick and the player cannot beat it:
    #: the player must still play one of their lower trumps (under-trump) instead of discarding.
    MUST_UNDERTRUMP = "must_undertrump"
    #: Announcing is only for a hand holding a declaration, on its turn in trick 1, once.
    CANNOT_ANNOUNCE = "cannot_announce"
    #: Showing is only for a player who announced, on their turn in trick 2, once.
    CANNOT_SHOW = "cannot_show"
    #: A pilotta flag on a card that is not the first (or called second) of the King and Queen
    #: of trumps dealt to this player.
    BAD_PILOTTA_CALL = "bad_pilotta_call"


class EngineError(ValueError):
    """Base class of every error the engine raises."""


class IllegalActionError(EngineError):
    """An action that the rules forbid in this state; ``reason`` says which rule."""

    def __init__(self, reason: Reason, message: str | None = None) -> None:
        super().__init__(f"{reason}: {message}" if message else str(reason))
        self.reason = reason


class MalformedActionError(EngineError):
    """An action that cannot be read: unknown words, wrong types, missing or extra keys."""


class InvalidDealError(EngineError):
    """A deal that is not the ruleset's deck in distinct cards, or a bad dealer or cut."""


class MatchError(EngineError):
    """A round that cannot be added to a match (wrong dealer, unfinished, match decided)."""


class MalformedRecordError(EngineError):
    """A hand record that cannot be replayed.

    ``index`` names the first bad action, or is None when the record itself is bad;
    ``round`` names the round of a match record, when known.
    """

    def __init__(self, message: str, *, index: int | None = None, round: int | None = None) -> None:
        super().__init__(message)
        self.index = index
        self.round = round
