"""RoundState: one immutable round, dispatching each action to its phase."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .actions import Action, Announce, Bid, Close, Name, Pass, Play, Reclose, Show, Take
from .auction import Auction
from .cards import Card, Seat, cards_mask, parse_cards
from .dealing import CLASSIC_FIRST_CARDS, complete_deal
from .declarations import Announcement, Declaration, find_declarations
from .errors import EngineError, IllegalActionError, InvalidDealError, MalformedActionError, Reason
from .phase import Phase
from .play import Cardplay, OpenTrick, Trick
from .ruleset import DEFAULT_RULESET, Ruleset
from .scoring import Contract, RoundResult, score_classic, score_round
from .taking import Taking

if TYPE_CHECKING:
    from .observation import Observation

ACTION_TYPES = (Bid, Pass, Close, Reclose, Take, Name, Announce, Show, Play)
Hand = tuple[Card, ...]


class RoundState:
    """A round of Pilotta; ``apply`` returns a new state and leaves this one valid.

    A cancelled round (every player passed) has no contract and no result; the match scores
    it 0-0. A classic round is dealt five cards each with a turned card and a stock; the deal
    is completed to eight when someone takes.
    """

    __slots__ = (
        "_auction",
        "_contract",
        "_dealer",
        "_dealt",
        "_hands",
        "_history",
        "_play",
        "_result",
        "_ruleset",
        "_stock",
        "_to_act",
        "_turned",
    )

    _ruleset: Ruleset
    _dealer: Seat
    _dealt: tuple[Hand, ...]
    _hands: tuple[Hand, ...]
    _turned: Card | None
    _stock: tuple[Card, ...]
    _history: tuple[tuple[Seat, Action], ...]
    _auction: Auction | Taking
    _contract: Contract | None
    _play: Cardplay | None
    _result: RoundResult | None
    _to_act: Seat | None

    @classmethod
    def new(
        cls,
        *,
        dealer: Seat,
        hands: Sequence[Sequence[Card] | str],
        ruleset: Ruleset = DEFAULT_RULESET,
        turned: Card | str | None = None,
        stock: Sequence[Card] | str = (),
    ) -> RoundState:
        """Start a round from the dealt hands of each seat (cards or card strings).

        The palaristi game deals eight cards each. The classic game deals five each and also
        takes the turned card and the stock (the rest of the deck, top card first).
        """
        players = ruleset.players
        if type(dealer) is not int or not 0 <= dealer < players:
            raise InvalidDealError(f"the dealer must be a seat 0 to {players - 1}, not {dealer!r}")
        state = cls()
        state._ruleset = ruleset
        state._dealer = dealer
        state._history = ()
        if ruleset.is_classic:
            state._dealt, state._turned, state._stock = _check_classic_deal(
                ruleset, hands, turned, stock
            )
            state._auction = Taking.start(
                dealer=dealer, players=players, turned_suit=state._turned.suit
            )
        else:
            if turned is not None or stock:
                raise InvalidDealError("only the classic game turns a card")
            state._dealt = _check_hands(hands)
            state._turned, state._stock = None, ()
            state._auction = Auction.start(dealer)
        state._hands = state._dealt
        state._contract = None
        state._play = None
        state._result = None
        state._to_act = state._auction.to_act
        return state

    # The state as a reader sees it.

    @property
    def ruleset(self) -> Ruleset:
        """Return the table settings."""
        return self._ruleset

    @property
    def dealer(self) -> Seat:
        """Return the dealer of this round."""
        return self._dealer

    @property
    def players(self) -> int:
        """Return the number of seats at the table."""
        return self._ruleset.players

    @property
    def hands(self) -> tuple[Hand, ...]:
        """Return the hands as dealt, by seat: a classic round's five until the deal is complete."""
        return self._hands

    @property
    def first_hands(self) -> tuple[Hand, ...]:
        """Return the hands as dealt before the auction (the classic game's five cards)."""
        return self._dealt

    @property
    def turned(self) -> Card | None:
        """Return the classic game's turned card (None in the palaristi game)."""
        return self._turned

    @property
    def stock(self) -> tuple[Card, ...]:
        """Return the classic game's stock, top card first; never shown to a player."""
        return self._stock

    @property
    def auction_round(self) -> int | None:
        """Return the classic game's round of taking (1 or 2), None once it is over."""
        auction = self._auction
        return auction.round if isinstance(auction, Taking) else None

    @property
    def history(self) -> tuple[tuple[Seat, Action], ...]:
        """Return every action taken, with its seat, in order."""
        return self._history

    @property
    def phase(self) -> Phase:
        """Return the phase: auction, play, cancelled or finished."""
        if self._play is not None:
            return Phase.FINISHED if self._play.to_act is None else Phase.PLAY
        if self._auction.cancelled:
            return Phase.CANCELLED
        return Phase.AUCTION

    @property
    def to_act(self) -> Seat | None:
        """Return the seat to act, or None once the round is over."""
        return self._to_act

    @property
    def auction(self) -> tuple[tuple[Seat, Action], ...]:
        """Return the actions of the auction."""
        return tuple(entry for entry in self._history if isinstance(entry[1], _AUCTION_TYPES))

    @property
    def high_bid(self) -> tuple[Seat, Bid] | None:
        """Return the highest bid so far with its seat, or None."""
        auction = self._auction
        if auction.high is None or auction.bidder is None:
            return None
        return (auction.bidder, auction.high)

    @property
    def multiplier(self) -> int:
        """Return 1, 2 once closed, 4 once re-closed."""
        return self._auction.multiplier

    @property
    def contract(self) -> Contract | None:
        """Return the contract once the auction is won, else None."""
        return self._contract

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """Return the completed tricks in order."""
        return () if self._play is None else self._play.tricks

    @property
    def current_trick(self) -> OpenTrick | None:
        """Return the trick being played, or None outside the play phase."""
        play = self._play
        if play is None or play.to_act is None:
            return None
        return OpenTrick(play.leader, play.trick)

    @property
    def result(self) -> RoundResult | None:
        """Return the score once all tricks are played; None before, and when cancelled."""
        return self._result

    def hand(self, seat: Seat) -> Hand:
        """Return the cards ``seat`` still holds, in the order dealt."""
        if self._play is None:
            return self._hands[seat]
        held = self._play.held[seat]
        return tuple(card for card in self._hands[seat] if held >> card.index & 1)

    def declarations(self, seat: Seat) -> tuple[Declaration, ...]:
        """Return the declarations in the hand dealt to ``seat``."""
        return find_declarations(self._hands[seat])

    def announced(self, seat: Seat) -> bool:
        """Say whether ``seat`` has announced its declarations."""
        return self._play is not None and self._play.announced[seat]

    def announcements(self, seat: Seat) -> tuple[Announcement, ...]:
        """Return what ``seat`` announced: kind, length and value of each declaration."""
        if not self.announced(seat):
            return ()
        # Sorted, so that the order of declarations does not hint at their suits.
        return tuple(sorted((d.announcement for d in self.declarations(seat)), reverse=True))

    def shown(self, seat: Seat) -> tuple[Declaration, ...]:
        """Return the declarations ``seat`` has shown."""
        return () if self._play is None else self._play.shown_declarations(seat)

    @property
    def pilotta_calls(self) -> tuple[tuple[Seat, Card], ...]:
        """Return the King and Queen of trumps played with a pilotta call, with the seat."""
        play = self._play
        if play is None or play.pilotta_seat is None:
            return ()
        return tuple((play.pilotta_seat, card) for card in play.pilotta_calls)

    # Acting.

    def legal_actions(self) -> list[Action]:
        """Return every legal action of the seat to act (plays without pilotta flag)."""
        if self._play is not None:
            return self._play.legal_actions()
        return self._auction.legal_actions()

    def why_illegal(self, seat: Seat, action: Action) -> Reason | None:
        """Return why ``seat`` may not take ``action`` now, or None if it may."""
        if not isinstance(action, ACTION_TYPES):
            raise MalformedActionError(f"not an action: {action!r}")
        to_act = self._to_act
        if to_act is None:
            return Reason.ROUND_OVER
        if seat != to_act:
            return Reason.NOT_YOUR_TURN
        if self._play is not None:
            return self._play.why_illegal(seat, action)
        return self._auction.why_illegal(seat, action)

    def apply(self, seat: Seat, action: Action) -> RoundState:
        """Return the state after ``seat`` takes ``action``; raise IllegalActionError if barred."""
        reason = self.why_illegal(seat, action)
        if reason is not None:
            raise IllegalActionError(reason, f"seat {seat} may not {action}")
        after = self._copy()
        after._history = (*self._history, (seat, action))
        if self._play is not None:
            after._play = play = self._play.apply(seat, action)
            after._to_act = play.to_act
            if play.to_act is None:
                after._result = self._score(play)
            return after
        after._auction = auction = self._auction.apply(seat, action)
        after._to_act = auction.to_act
        contract = auction.contract
        if contract is not None:
            after._contract = contract
            if self._turned is not None:
                after._hands = complete_deal(
                    self._hands,
                    turned=self._turned,
                    stock=self._stock,
                    dealer=self._dealer,
                    taker=contract.seat,
                )
            after._play = Cardplay.start(
                trump=contract.trump,
                dealt=tuple(cards_mask(hand) for hand in after._hands),
                leader=(self._dealer + 1) % self.players,
                partner_protection=self._ruleset.partner_protection,
            )
            after._to_act = after._play.to_act
        return after

    def _score(self, play: Cardplay) -> RoundResult:
        assert self._contract is not None
        shown: list[list[Declaration]] = [[] for _ in range(play.sides)]
        for seat in range(self.players):
            shown[play.side_of(seat)].extend(play.shown_declarations(seat))
        if self._ruleset.is_classic:
            return score_classic(
                self._contract,
                play.side_card_points(),
                play.side_tricks(),
                shown,
                play.side_pilotta(),
            )
        return score_round(
            self._contract,
            play.team_card_points(),
            play.team_tricks(),
            shown,
            play.team_pilotta(),
        )

    def _copy(self) -> RoundState:
        copy = RoundState()
        copy._ruleset = self._ruleset
        copy._dealer = self._dealer
        copy._dealt = self._dealt
        copy._turned = self._turned
        copy._stock = self._stock
        copy._hands = self._hands
        copy._history = self._history
        copy._auction = self._auction
        copy._contract = self._contract
        copy._play = self._play
        copy._result = self._result
        copy._to_act = self._to_act
        return copy

    # Views.

    def observation(self, seat: Seat) -> Observation:
        """Return what ``seat`` may know of this round."""
        from .observation import observe

        return observe(self, seat)

    def public_observation(self) -> Observation:
        """Return what a spectator may know: no hand at all."""
        from .observation import observe

        return observe(self, None)

    def _identity(self) -> tuple[Any, ...]:
        return (self._ruleset, self._dealer, self._dealt, self._turned, self._stock, self._history)

    def __eq__(self, other: object) -> bool:
        # A round is its deal and its actions; everything else follows from them.
        if not isinstance(other, RoundState):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __repr__(self) -> str:
        return (
            f"<RoundState dealer={self._dealer} phase={self.phase} "
            f"to_act={self.to_act} actions={len(self._history)}>"
        )


_AUCTION_TYPES = (Bid, Pass, Close, Reclose, Take, Name)


def _read_cards(cards: Sequence[Card] | str, what: str) -> tuple[Card, ...]:
    try:
        read = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    except (EngineError, TypeError) as error:
        raise InvalidDealError(f"not {what}: {cards!r}") from error
    if any(type(card) is not Card for card in read):
        raise InvalidDealError(f"not {what}: {cards!r}")
    return read


def _check_classic_deal(
    ruleset: Ruleset,
    hands: Sequence[Sequence[Card] | str],
    turned: Card | str | None,
    stock: Sequence[Card] | str,
) -> tuple[tuple[Hand, ...], Card, tuple[Card, ...]]:
    """Return five cards per seat, the turned card and the stock that make up the whole deck."""
    players = ruleset.players
    if isinstance(hands, str) or len(hands) != players:
        raise InvalidDealError(f"a classic deal for {players} is {players} hands")
    dealt = tuple(_read_cards(hand, "a hand") for hand in hands)
    if any(len(hand) != CLASSIC_FIRST_CARDS for hand in dealt):
        raise InvalidDealError(f"each hand is {CLASSIC_FIRST_CARDS} cards before the auction")
    if turned is None:
        raise InvalidDealError("a classic deal turns a card")
    read = _read_cards(turned, "a card") if isinstance(turned, str) else (turned,)
    if len(read) != 1 or type(read[0]) is not Card:
        raise InvalidDealError(f"the turned card is one card, not {turned!r}")
    turned_card = read[0]
    stocked = _read_cards(stock, "a stock")
    expected = len(ruleset.deck) - players * CLASSIC_FIRST_CARDS - 1
    if len(stocked) != expected:
        raise InvalidDealError(f"the stock holds {expected} cards for {players} players")
    cards = [card for hand in dealt for card in hand] + [turned_card, *stocked]
    if len(set(cards)) != len(cards) or set(cards) != set(ruleset.deck):
        raise InvalidDealError(f"the deal must hold the {len(ruleset.deck)} cards once each")
    return dealt, turned_card, stocked


def _check_hands(hands: Sequence[Sequence[Card] | str]) -> tuple[Hand, ...]:
    """Return four hands of eight cards, all 32 distinct, or raise InvalidDealError."""
    if isinstance(hands, str) or len(hands) != 4:
        raise InvalidDealError("a deal is four hands")
    dealt = []
    for hand in hands:
        try:
            cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
        except (EngineError, TypeError) as error:
            raise InvalidDealError(f"not a hand: {hand!r}") from error
        if len(cards) != 8 or any(type(card) is not Card for card in cards):
            raise InvalidDealError("each hand is eight cards")
        dealt.append(cards)
    if len({card for hand in dealt for card in hand}) != 32:
        raise InvalidDealError("the four hands must hold 32 distinct cards")
    return tuple(dealt)
