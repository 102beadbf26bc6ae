"""Bitmask core of the play phase, tuned for random playouts (the trick order and the legal cards).

Cards are small ints, ``suit * 8 + rank`` (suits C D H S = 0..3, ranks 7 8 9 T J Q K A = 0..7), and
a hand is an int with bit ``1 << card`` set for each card held: the same encoding as the friendly
engine. Seats are 0..3, play moves from ``s`` to ``(s + 1) % 4`` and a seat's team is ``seat % 2``.
Tables of two sides: the palaristi game, the classic game of four, whose partner protection a
position carries as ``protection``, and the classic game of two (``players=2``: seats 0 and 1,
each its own side, so that ``seat % 2`` still names the side). The classic game of three
(``players=3``) is each for themself; a position counts it as a search for seat 0 sees it, seat 0
against seats 1 and 2 taken together (:func:`side_of`). The random playouts are for four seats.

Two layers:

- readable, checked helpers: :func:`legal_mask`, :func:`trick_winner`, :func:`trick_points` and the
  immutable :class:`PlayPosition` with :func:`legal` and :func:`play`, for search bots and tests;
- :func:`playout` and :func:`playout_from`, which finish a round choosing uniformly among the legal
  cards. Their inner loop inlines :func:`legal_mask_from` and the trick bookkeeping on purpose (no
  calls or allocations per card); ``tests/games/engine/test_fast.py`` replays their ``trace``
  against :func:`legal_mask` to prove they only play legal cards.

Nothing here does I/O or touches global randomness: callers pass a :class:`random.Random`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple

Card = int
Mask = int
Seat = int
Suit = int
Team = int

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUIT_CHARS = "CDHS"
RANK_CHARS = "789TJQKA"
NO_SUIT = -1  # the led suit of an empty trick

FULL_DECK: Mask = (1 << 32) - 1
LAST_TRICK_BONUS = 10
TOTAL_POINTS = 162
TRICKS_PER_ROUND = 8

# Per rank (7 8 9 T J Q K A): order within the trick (higher wins) and card points.
_TRUMP_ORDER = (0, 1, 6, 4, 7, 2, 3, 5)  # J 9 A T K Q 8 7
_SIDE_ORDER = (0, 1, 2, 6, 3, 4, 5, 7)  # A T K Q J 9 8 7
_TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
_SIDE_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)

SUIT_MASKS: tuple[Mask, ...] = tuple(0xFF << (8 * suit) for suit in range(4))
"""``SUIT_MASKS[suit]``: the eight cards of a suit."""


def _strength(card: Card, trump: Suit) -> int:
    """Return the trick order of a card, trumps (8..15) above every side card (0..7)."""
    rank = card & 7
    return 8 + _TRUMP_ORDER[rank] if card >> 3 == trump else _SIDE_ORDER[rank]


def _beaten_by(card: Card, trump: Suit) -> Mask:
    """Return the cards that take the trick from ``card`` when ``card`` is winning it."""
    suit = card >> 3
    higher = 0
    for other in range(8 * suit, 8 * suit + 8):
        if _strength(other, trump) > _strength(card, trump):
            higher |= 1 << other
    # A winning side card is of the led suit: any trump beats it.
    return higher if suit == trump else higher | SUIT_MASKS[trump]


STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(_strength(card, trump) for card in range(32)) for trump in range(4)
)
"""``STRENGTH[trump][card]``: trick order, trumps 8..15 and side cards 0..7 (led suit decides)."""

POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple((_TRUMP_POINTS if card >> 3 == trump else _SIDE_POINTS)[card & 7] for card in range(32))
    for trump in range(4)
)
"""``POINTS[trump][card]``: card points."""

BEATEN_BY: tuple[tuple[Mask, ...], ...] = tuple(
    tuple(_beaten_by(card, trump) for card in range(32)) for trump in range(4)
)
"""``BEATEN_BY[trump][card]``: the cards that beat ``card`` when it is winning the trick."""

_CARD_OF_BIT: dict[Mask, Card] = {1 << card: card for card in range(32)}
# Random bits needed to draw an index below n (n <= 8 cards in a hand) by rejection.
_DRAW_BITS = (0, 0, 1, 2, 2, 3, 3, 3, 3)
_BIT_LENGTH = tuple(n.bit_length() for n in range(32))


# --- bits and cards ---------------------------------------------------------------------------


def popcount(mask: Mask) -> int:
    """Return the number of cards in ``mask``."""
    return mask.bit_count()


def iter_bits(mask: Mask) -> Iterator[Card]:
    """Yield the cards of ``mask`` in ascending index order."""
    while mask:
        low = mask & -mask
        yield _CARD_OF_BIT[low]
        mask ^= low


def cards_of(mask: Mask) -> list[Card]:
    """Return the cards of ``mask`` in ascending index order."""
    return list(iter_bits(mask))


def mask_of(cards: Iterable[Card]) -> Mask:
    """Return the mask holding ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def union(masks: Iterable[Mask]) -> Mask:
    """Return the cards found in any of ``masks``."""
    found = 0
    for mask in masks:
        found |= mask
    return found


def card_name(card: Card) -> str:
    """Return the two-letter name of a card, such as ``"JH"``."""
    return RANK_CHARS[card & 7] + SUIT_CHARS[card >> 3]


def parse_card(name: str) -> Card:
    """Return the index of a two-letter card name, such as ``"JH"``."""
    if len(name) != 2 or name[0] not in RANK_CHARS or name[1] not in SUIT_CHARS:
        raise ValueError(f"not a card: {name!r}")
    return SUIT_CHARS.index(name[1]) * 8 + RANK_CHARS.index(name[0])


def parse_cards(text: str) -> list[Card]:
    """Return the cards of a space-separated list of names, such as ``"JH 9H AC"``."""
    return [parse_card(name) for name in text.split()]


# --- tricks -----------------------------------------------------------------------------------


def winning_card(cards: Sequence[Card], trump: Suit) -> Card:
    """Return the card that is winning a non-empty trick so far."""
    beaten_by = BEATEN_BY[trump]
    best = cards[0]
    for card in cards[1:]:
        if beaten_by[best] >> card & 1:
            best = card
    return best


def side_of(seat: Seat, players: int = 4) -> int:
    """Return the side a position counts ``seat``'s points for: 0 or 1.

    A team with four players, the seat itself with two, and with three seat 0 alone against the
    other two: in the game of three each plays for themself, and a search for seat 0 takes its
    two opponents to play together against it (the paranoid view), the worst they could do.
    """
    if players == 3:
        return min(seat, 1)
    return seat % 2


def trick_winner(cards: Sequence[Card], leader: Seat, trump: Suit, players: int = 4) -> Seat:
    """Return the seat that wins a trick, ``cards`` being in play order from ``leader``."""
    return (leader + list(cards).index(winning_card(cards, trump))) % players


def trick_points(cards: Iterable[Card], trump: Suit) -> int:
    """Return the card points of a trick, without the last-trick bonus."""
    points = POINTS[trump]
    return sum(points[card] for card in cards)


# --- legal cards: following suit, trumping and under-trumping ---------------------------------


def legal_mask_from(
    hand: Mask, led: Suit, best: Card, trump: Suit, partner_winning: bool = False
) -> Mask:
    """Return the legal cards of ``hand`` given the led suit and the winning card of the trick.

    ``led`` is ``NO_SUIT`` (and ``best`` ignored) when the trick is empty. The winning card is the
    highest trump on the trick whenever a trump is on it, which is all the rules need to know.
    ``partner_winning`` is partner protection in the classic game of four: the player's partner
    holds the trick, so a player who cannot follow need not trump, though a trump over a trump
    must still beat it.
    """
    if led == NO_SUIT:
        return hand
    follow = hand & SUIT_MASKS[led]
    if follow:
        if led != trump:
            return follow
        # Trump led: beat the highest trump if you can, otherwise any trump.
        return follow & BEATEN_BY[trump][best] or follow
    trumps = hand & SUIT_MASKS[trump]
    if trumps:
        # Void in the led suit: you must trump (without partner protection, partner winning or
        # not). Over a trump you must over-trump if you can, otherwise under-trump (any trump
        # beats a side card).
        if partner_winning:
            return hand & ~SUIT_MASKS[trump] | (trumps & BEATEN_BY[trump][best] or trumps)
        return trumps & BEATEN_BY[trump][best] or trumps
    return hand


def legal_mask(
    hand: Mask, trick: Sequence[Card], trump: Suit, *, partner_winning: bool = False
) -> Mask:
    """Return the legal cards of ``hand`` on ``trick`` (cards in play order, maybe empty)."""
    if not trick:
        return hand
    return legal_mask_from(hand, trick[0] >> 3, winning_card(trick, trump), trump, partner_winning)


def partner_winning(trick: Sequence[Card], leader: Seat, trump: Suit) -> bool:
    """Say whether the partner of the seat to act holds the trick (four seats)."""
    if not trick:
        return False
    winner = (leader + list(trick).index(winning_card(trick, trump))) % 4
    return winner == (leader + len(trick) + 2) % 4


# --- positions --------------------------------------------------------------------------------


class PlayPosition(NamedTuple):
    """An immutable position of the play phase.

    ``trick`` holds the cards of the unfinished trick in play order from ``leader``; ``points``
    and ``tricks`` count the finished tricks per team (points include the last-trick bonus).
    ``protection`` is the classic game's partner protection; ``players`` is 4, 3 for the
    classic game of three (``hands[3]`` stays empty; ``points`` and ``tricks`` are seat 0's and
    the other two's together, :func:`side_of`), or 2 for the classic game of two (whose hands
    hold the dealt cards only; ``hands[2]`` and ``hands[3]`` stay empty).
    """

    hands: tuple[Mask, Mask, Mask, Mask]
    trick: tuple[Card, ...]
    leader: Seat
    trump: Suit
    points: tuple[int, int] = (0, 0)
    tricks: tuple[int, int] = (0, 0)
    protection: bool = False
    players: int = 4

    @classmethod
    def start(
        cls,
        hands: Sequence[Mask],
        leader: Seat,
        trump: Suit,
        *,
        protection: bool = False,
        players: int = 4,
    ) -> PlayPosition:
        """Return the position before the first card, ``hands`` indexed by seat."""
        if players not in (2, 3, 4) or (protection and players != 4):
            raise ValueError("a position is for four seats, or two or three without protection")
        if len(hands) != players:
            raise ValueError("a position needs a hand for each seat")
        four = (*hands, 0, 0, 0)
        return cls(
            (four[0], four[1], four[2], four[3]),
            (),
            leader,
            trump,
            protection=protection,
            players=players,
        )

    @property
    def to_act(self) -> Seat:
        """Return the seat to play next."""
        return (self.leader + len(self.trick)) % self.players

    @property
    def is_over(self) -> bool:
        """Return whether every card has been played."""
        return not any(self.hands)


def legal(pos: PlayPosition) -> Mask:
    """Return the cards the seat to act may play."""
    free = pos.protection and partner_winning(pos.trick, pos.leader, pos.trump)
    return legal_mask(pos.hands[pos.to_act], pos.trick, pos.trump, partner_winning=free)


def play(pos: PlayPosition, card: Card) -> PlayPosition:
    """Return the position after the seat to act plays ``card``; raise ValueError if illegal."""
    seat = pos.to_act
    bit = 1 << card
    if not legal(pos) & bit:
        raise ValueError(f"seat {seat} may not play {card_name(card)}")
    hands = list(pos.hands)
    hands[seat] ^= bit
    new_hands = (hands[0], hands[1], hands[2], hands[3])
    trick = (*pos.trick, card)
    if len(trick) < pos.players:
        return pos._replace(hands=new_hands, trick=trick)
    winner = trick_winner(trick, pos.leader, pos.trump, pos.players)
    team = side_of(winner, pos.players)
    gained = trick_points(trick, pos.trump)
    if not any(new_hands):
        gained += LAST_TRICK_BONUS
    points = list(pos.points)
    tricks = list(pos.tricks)
    points[team] += gained
    tricks[team] += 1
    return pos._replace(
        hands=new_hands,
        trick=(),
        leader=winner,
        points=(points[0], points[1]),
        tricks=(tricks[0], tricks[1]),
    )


# --- random playouts --------------------------------------------------------------------------


class Outcome(NamedTuple):
    """Card points (last trick included) and tricks taken per team at the end of the play."""

    points: tuple[int, int]
    tricks: tuple[int, int]

    @property
    def capot(self) -> Team | None:
        """Return the team that took every trick, if one did."""
        if self.tricks[1] == 0:
            return 0
        if self.tricks[0] == 0:
            return 1
        return None


def random_deal(rng: random.Random) -> tuple[Mask, Mask, Mask, Mask]:
    """Return four random 8-card hands, indexed by seat (every deal equally likely)."""
    getrandbits = rng.getrandbits
    deck = list(range(32))
    hands = [0, 0, 0, 0]
    # Fisher-Yates from the top of the deck: position `top` goes to seat `top // 8`, and seat 0
    # gets the eight cards left at the bottom.
    for top in range(31, 7, -1):
        nbits = _BIT_LENGTH[top]
        pick = getrandbits(nbits)
        while pick > top:
            pick = getrandbits(nbits)
        hands[top >> 3] |= 1 << deck[pick]
        deck[pick] = deck[top]
    return (FULL_DECK ^ hands[1] ^ hands[2] ^ hands[3], hands[1], hands[2], hands[3])


def _draw(mask: Mask, getrandbits: Callable[[int], int]) -> Mask:
    """Return the bit of one card of ``mask`` drawn uniformly (exactly: rejection sampling)."""
    count = mask.bit_count()
    if count > 1:
        nbits = _DRAW_BITS[count]
        k = getrandbits(nbits)
        while k >= count:
            k = getrandbits(nbits)
        while k:
            mask &= mask - 1
            k -= 1
    return mask & -mask


def playout(
    hands: Sequence[Mask],
    leader: Seat,
    trump: Suit,
    rng: random.Random,
    *,
    trace: list[Card] | None = None,
    protection: bool = False,
) -> Outcome:
    """Play a whole round from the deal at random; ``hands`` (by seat) must all hold 8 cards.

    Every card is drawn uniformly among the legal cards of the seat to act. If ``trace`` is given,
    the cards played are appended to it in play order. ``protection``: partner protection.
    """
    if any(hand.bit_count() != TRICKS_PER_ROUND for hand in hands) or union(hands) != FULL_DECK:
        raise ValueError("playout needs a full deal: 4 disjoint hands of 8 cards")
    return _play_tricks(list(hands), leader, trump, 0, 0, 0, 0, rng.getrandbits, trace, protection)


def playout_from(
    pos: PlayPosition, rng: random.Random, *, trace: list[Card] | None = None
) -> Outcome:
    """Finish the play at random from ``pos``, which may be in the middle of a trick.

    Meant for bots that sample the hidden hands and play out from the current position: the
    outcome counts the tricks already in ``pos`` as well. The hands must be disjoint, and each
    seat must hold exactly the cards the remaining tricks need of it. Four seats only.
    """
    if pos.players != 4:
        raise ValueError("random playouts are for four seats")
    trump = pos.trump
    hands = list(pos.hands)
    points = list(pos.points)
    tricks = list(pos.tricks)
    leader = pos.leader
    getrandbits = rng.getrandbits
    if pos.trick:
        # Finish the current trick with the readable helpers: it happens once per playout.
        trick = list(pos.trick)
        seat = pos.to_act
        while len(trick) < 4:
            free = pos.protection and partner_winning(trick, leader, trump)
            bit = _draw(legal_mask(hands[seat], trick, trump, partner_winning=free), getrandbits)
            if not bit:
                raise ValueError(f"seat {seat} has no card left to play")
            hands[seat] ^= bit
            card = _CARD_OF_BIT[bit]
            trick.append(card)
            if trace is not None:
                trace.append(card)
            seat = (seat + 1) % 4
        leader = trick_winner(trick, leader, trump)
        team = leader % 2
        points[team] += trick_points(trick, trump)
        tricks[team] += 1
        if not any(hands):
            points[team] += LAST_TRICK_BONUS
    left = hands[0].bit_count()
    if any(hand.bit_count() != left for hand in hands):
        raise ValueError("every seat must hold one card per remaining trick")
    return _play_tricks(
        hands,
        leader,
        trump,
        points[0],
        points[1],
        tricks[0],
        tricks[1],
        getrandbits,
        trace,
        pos.protection,
    )


def _play_tricks(
    hands: list[Mask],
    leader: Seat,
    trump: Suit,
    points0: int,
    points1: int,
    tricks0: int,
    tricks1: int,
    getrandbits: Callable[[int], int],
    trace: list[Card] | None,
    protection: bool = False,
) -> Outcome:
    """Play whole tricks at random until the hands (all of equal size) are empty.

    This is :func:`legal_mask_from`, :func:`_draw` and :func:`play` inlined; keep them in step.
    """
    trumps_mask = SUIT_MASKS[trump]
    suit_masks = SUIT_MASKS
    beaten_by = BEATEN_BY[trump]
    card_points = POINTS[trump]
    card_of_bit = _CARD_OF_BIT
    draw_bits = _DRAW_BITS
    left = hands[leader].bit_count()
    played_any = left > 0
    while left:
        # The leader may play any card.
        seat = leader
        legal = hands[seat]
        if left > 1:
            nbits = draw_bits[left]
            k = getrandbits(nbits)
            while k >= left:
                k = getrandbits(nbits)
            while k:
                legal &= legal - 1
                k -= 1
        bit = legal & -legal
        hands[seat] ^= bit
        best = card_of_bit[bit]
        if trace is not None:
            trace.append(best)
        won_by = seat
        gained = card_points[best]
        led_mask = suit_masks[best >> 3]
        trump_led = best >> 3 == trump
        for _ in (1, 2, 3):
            seat = (seat + 1) & 3
            hand = hands[seat]
            legal = hand & led_mask
            if legal:
                if trump_led:
                    higher = legal & beaten_by[best]
                    if higher:
                        legal = higher
            else:
                legal = hand & trumps_mask
                if legal:
                    higher = legal & beaten_by[best]
                    if higher:
                        legal = higher
                    if protection and won_by == (seat + 2) & 3:
                        legal |= hand & ~trumps_mask
                else:
                    legal = hand
            count = legal.bit_count()
            if count > 1:
                nbits = draw_bits[count]
                k = getrandbits(nbits)
                while k >= count:
                    k = getrandbits(nbits)
                while k:
                    legal &= legal - 1
                    k -= 1
            bit = legal & -legal
            hands[seat] = hand ^ bit
            card = card_of_bit[bit]
            if trace is not None:
                trace.append(card)
            gained += card_points[card]
            if beaten_by[best] & bit:
                best = card
                won_by = seat
        if won_by & 1:
            points1 += gained
            tricks1 += 1
        else:
            points0 += gained
            tricks0 += 1
        leader = won_by
        left -= 1
    if played_any:
        if leader & 1:
            points1 += LAST_TRICK_BONUS
        else:
            points0 += LAST_TRICK_BONUS
    return Outcome((points0, points1), (tricks0, tricks1))
