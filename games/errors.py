"""Refusals of the table and the rooms, each a code the site translates at the edge."""

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine import Reason

#: What the player reads for each rule the engine enforces.
REASON_MESSAGES: dict[Reason, Promise] = {
    Reason.ROUND_OVER: _("This round is over."),
    Reason.NOT_YOUR_TURN: _("It is not your turn."),
    Reason.WRONG_PHASE: _("You cannot do that at this point of the round."),
    Reason.BID_TOO_LOW: _("Your bid must be higher than the current bid."),
    Reason.BID_OUT_OF_RANGE: _("A bid is a multiple of 10 from 80 to 400."),
    Reason.BID_AFTER_CLOSE: _("The game is closed: nobody may bid any more."),
    Reason.CANNOT_CLOSE: _("You can close only against the other team's bid, once."),
    Reason.CANNOT_RECLOSE: _("Only the bidding team may close again, once, after a close."),
    Reason.NOT_IN_THIS_GAME: _("That move belongs to the other game."),
    Reason.CANNOT_TAKE: _("You can take the turned card only in the first round of taking."),
    Reason.CANNOT_NAME: _("You can name a trump only in the second round of taking."),
    Reason.NAME_TURNED_SUIT: _("Name one of the other three suits, not the turned card's."),
    Reason.CARD_NOT_IN_HAND: _("You do not hold that card."),
    Reason.MUST_FOLLOW_SUIT: _("You must follow suit."),
    Reason.MUST_BEAT_TRUMP: _("You must play a higher trump."),
    Reason.MUST_TRUMP: _("You must trump."),
    Reason.MUST_OVERTRUMP: _("You must play a higher trump."),
    Reason.MUST_UNDERTRUMP: _("You must still play a trump, even a lower one."),
    Reason.CANNOT_ANNOUNCE: _("You can announce only declarations you hold, in the first trick."),
    Reason.CANNOT_SHOW: _("You can show only what you announced, in the second trick."),
    Reason.BAD_PILOTTA_CALL: _("Pilotta is called only with the King or Queen of trumps."),
}

#: What the player reads for each refusal of the rooms and the table outside the rules.
ERROR_MESSAGES: dict[str, Promise] = {
    "not_owner": _("Only the room's owner can do that."),
    "not_member": _("You are not at this table."),
    "room_not_open": _("The seats cannot change once the game has started."),
    "room_full": _("This room is full."),
    "room_closed": _("This room is closed."),
    "seat_taken": _("This seat is taken."),
    "seat_not_bot": _("There is no computer player in this seat."),
    "not_seated": _("You do not have a seat at this table."),
    "seats_empty": _("Every seat must be taken before the game starts."),
    "no_round": _("No round is being played."),
    "match_playing": _("A game is still being played."),
    "stale": _("The table has moved on; try again."),
    "malformed": _("That is not a move the table understands."),
    "frame_too_large": _("That message is too long for the table."),
    "too_many_messages": _("Too many moves at once; slow down."),
    "bad_invite": _("This invitation link is not valid any more."),
    "not_friends": _("You can invite only your friends."),
    "already_seated": _("This player already has a seat here."),
}


class GameError(Exception):
    """A refused request; ``code`` is a Reason or a key of ERROR_MESSAGES."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code

    @property
    def message(self) -> str:
        """Return the sentence to show, in the active language."""
        return message_for(self.code)


def message_for(code: str) -> str:
    """Translate a refusal code into a sentence for the player."""
    try:
        return str(REASON_MESSAGES[Reason(code)])
    except ValueError:
        return str(ERROR_MESSAGES.get(code, ERROR_MESSAGES["malformed"]))
