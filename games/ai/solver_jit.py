"""The open-hand solver compiled with numba: the search of ``solver`` on arrays.

The transposition table is a numpy hash table keyed by the four hands, the leader and the
rules (``rules = trump + 4 * protection + 8 * (players == 2) + 16 * (players == 3)``: partner
protection in the classic game of four, two or three seats in the classic games of two and
three); a value depends on nothing else, so entries stay valid from one solve to the next. With
three seats, seat 0 plays against the other two taken together (``fast.side_of``).

Before a trick start is searched or looked up, bounds found by counting (``quick_bounds``: the
points left, the top trumps each side holds, the quick tricks of the side on lead) settle it
when they already fall outside the window: a quarter fewer nodes on ``bench_solver``.
"""

from __future__ import annotations

import logging
import os
import stat
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any, cast

import numba
import numpy as np
from numba import njit

from games.engine.fast import (
    BEATEN_BY,
    POINTS,
    STRENGTH,
    SUIT_MASKS,
    PlayPosition,
    cards_of,
    legal,
    play,
    side_of,
    winning_card,
)

from .solver import remaining_points

INFINITY = 1000
LAST_TRICK_BONUS = 10
TABLE_BITS = 20
MAX_DEPTH = 33
SLICE_NODES = 20_000  # nodes searched between two looks at the clock
UNLIMITED = 1 << 62

_BEATEN = np.array(BEATEN_BY, dtype=np.int64)
_POINTS = np.array(POINTS, dtype=np.int64)
_STRENGTH = np.array(STRENGTH, dtype=np.int64)
_SUITS = np.array(SUIT_MASKS, dtype=np.int64)
_BYTE_COUNT = np.array([bin(byte).count("1") for byte in range(256)], dtype=np.int64)


def _strongest_first(suit: int, trump: int) -> list[int]:
    """Return the cards of ``suit`` from the strongest to the weakest under ``trump``."""
    return sorted(range(8 * suit, 8 * suit + 8), key=STRENGTH[trump].__getitem__, reverse=True)


# _TOP_DOWN[trump, suit]: the suit's cards from the strongest to the weakest.
_TOP_DOWN = np.array(
    [[_strongest_first(suit, trump) for suit in range(4)] for trump in range(4)], dtype=np.int64
)
# _SUIT_POINTS[trump, suit, cards]: the points of a suit's cards (one byte of a hand's mask).
_SUIT_POINTS = np.zeros((4, 4, 256), dtype=np.int64)
for _trump in range(4):
    for _suit in range(4):
        for _byte in range(256):
            _SUIT_POINTS[_trump, _suit, _byte] = sum(
                POINTS[_trump][8 * _suit + _rank] for _rank in range(8) if (_byte >> _rank) & 1
            )
# A one-card mask times this de Bruijn constant has a distinct top five bits (of 32) for each
# card, so one multiplication and a look-up find the card where a loop would shift up to 31 times.
DE_BRUIJN = 0x077CB531
_CARD_AT = np.zeros(32, dtype=np.int64)
for _card in range(32):
    _CARD_AT[(((1 << _card) * DE_BRUIJN) & 0xFFFFFFFF) >> 27] = _card

logger = logging.getLogger(__name__)


def _cache_probe() -> None:
    """Do nothing: numba is asked to cache this function to learn where it can cache this file's."""


def _private_temporary_folder() -> str:
    """Return this user's folder for the compiled search in the system's temporary folder.

    Numba's cache holds pickles, which it loads: a folder another user made or may write to
    could hand this process code to run, so such a folder is passed over for a new one.
    """
    path = os.path.join(tempfile.gettempdir(), f"pilotta-numba-{os.getuid()}")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError:  # something other than a folder already has the name
        return tempfile.mkdtemp(prefix="pilotta-numba-")
    found = os.lstat(path)
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid() or found.st_mode & 0o077:
        return tempfile.mkdtemp(prefix="pilotta-numba-")
    return path


def _cache_somewhere() -> None:
    """Give numba a folder for the compiled search where it would find none.

    Numba caches beside the code, else in the user's cache folder, and refuses to compile any
    function marked for its cache where it can write to neither (a read-only image run by a user
    without a home): every strong computer would fail to load. The system's temporary folder then
    keeps the compiled search for as long as that folder lasts; ``NUMBA_CACHE_DIR`` keeps it
    across restarts.
    """
    try:
        njit(cache=True)(_cache_probe)
    except RuntimeError:
        cache_dir = _private_temporary_folder()
        config: Any = numba.config  # its settings are made at run time, unseen by mypy
        config.CACHE_DIR = cache_dir
        logger.warning(
            "Neither %s nor the user's cache folder can be written: the strong computers' "
            "compiled search is cached in %s. Set NUMBA_CACHE_DIR to a lasting, writable folder.",
            os.path.dirname(__file__),
            cache_dir,
        )


_cache_somewhere()
jit = cast(Callable[..., Callable[[Callable[..., Any]], Callable[..., Any]]], njit)
# The search's helpers are inlined by numba itself (inline="always"), not left as calls between
# separately compiled functions: the search loop compiled as one piece visits the same nodes some
# 40% faster (bench_solver median 43 -> 27 ms).


@jit(cache=True, inline="always")
def _card_of(bit: int) -> int:
    """Return the card of a one-card mask."""
    return int(_CARD_AT[((bit * DE_BRUIJN) & 0xFFFFFFFF) >> 27])


@jit(cache=True, inline="always")
def _order(
    legal_cards: int,
    others: int,
    seat: int,
    trump: int,
    played: int,
    best: int,
    best_seat: int,
    players: int,
    row: np.ndarray,
    scores: np.ndarray,
) -> int:
    """Write the legal cards into ``row``, most promising first; return how many.

    ``others``: the cards the other seats hold and those on the open trick (none when the seat
    leads, the only time the order reads them).
    """
    count = 0
    mask = legal_cards
    while mask:
        low = mask & -mask
        card = _card_of(low)
        mask ^= low
        points = _POINTS[trump, card]
        strength = _STRENGTH[trump, card]
        if played == 0:
            beaters = others & _BEATEN[trump, card] & _SUITS[card >> 3]
            score = -100 - points if beaters == 0 else points + strength
        elif _side(best_seat, players) == _side(seat, players):
            score = -points if (_BEATEN[trump, best] >> card) & 1 == 0 else 50 + strength
        else:
            score = strength - 100 if (_BEATEN[trump, best] >> card) & 1 else points
        position = count
        while position > 0 and scores[position - 1] > score:
            scores[position] = scores[position - 1]
            row[position] = row[position - 1]
            position -= 1
        scores[position] = score
        row[position] = card
        count += 1
    return count


@jit(cache=True, inline="always")
def _legal(hand: int, played: int, led: int, best: int, trump: int, free: bool) -> int:
    """Return the legal cards of ``hand`` (fast.legal_mask_from on arrays).

    ``free``: partner protection, the seat's partner holding the trick.
    """
    if played == 0:
        return hand
    follow: int = hand & _SUITS[led]
    if follow:
        if led != trump:
            return follow
        higher: int = follow & _BEATEN[trump, best]
        return higher if higher else follow
    trumps: int = hand & _SUITS[trump]
    if trumps:
        higher = trumps & _BEATEN[trump, best]
        chosen = higher if higher else trumps
        return chosen | (hand & ~_SUITS[trump]) if free else chosen
    return hand


@jit(cache=True, inline="always")
def _slot(hands: np.ndarray, leader: int, rules: int) -> int:
    """Return the table slot of a trick start (``rules``: the trump, and protection above it)."""
    key = (hands[0] * 0x2545F4914F6CDD1D) ^ (hands[1] * 0x5851F42D4C957F2D)
    key ^= (hands[2] * 0x14057B7EF767814F) ^ (hands[3] * 0x1B873593) ^ (leader * 7 + rules * 31)
    key ^= key >> 29
    key *= 0x3C79AC492BA7B653
    key ^= key >> 32
    return int(key & ((1 << TABLE_BITS) - 1))


# Columns of a search frame: one row per depth of the explicit stack (numba cannot cache
# recursive functions, so the search keeps its own stack).
LEADER, PLAYED, LED, BEST, BEST_SEAT, GAINED = 0, 1, 2, 3, 4, 5
ALPHA, BETA, VALUE, NEXT, COUNT, SLOT, LOWER, UPPER, WINDOW_ALPHA, WINDOW_BETA, OFFSET = range(
    6, 17
)
TRICK = 17  # the cards on the open trick, as a mask
BEST_MOVE = 18  # the card that gave the node its value so far (-1: none yet)
FRAME_FIELDS = 19
# Columns of a table entry: the four hands and a tag (the leader and the rules) as its key, then
# the bounds and the card that gave the stored value. Eight int64 make one 64-byte cache line, so
# a look-up that misses the processor's caches costs one trip to memory, not two.
TAG, TABLE_LOWER, TABLE_UPPER, TABLE_MOVE = 4, 5, 6, 7
TABLE_COLUMNS = 8
CACHE_LINE = 64


@jit(cache=True, inline="always")
def _players(rules: int) -> int:
    """Return the number of seats the rules say: 2, 3 or 4."""
    if rules & 8:
        return 2
    return 3 if rules & 16 else 4


@jit(cache=True, inline="always")
def _seat_after(seat: int, offset: int, players: int) -> int:
    """Return the seat ``offset`` places after ``seat`` (both under ``players``)."""
    after = seat + offset
    return after - players if after >= players else after


@jit(cache=True, inline="always")
def _side(seat: int, players: int) -> int:
    """Return the side the search counts ``seat`` in (``fast.side_of``)."""
    if players == 3:
        return 1 if seat else 0
    return seat & 1


@jit(cache=True, inline="always")
def _last_trick(hands: np.ndarray, leader: int, trump: int, players: int) -> int:
    """Return team 0's points from the last trick, every hand holding one card."""
    best = _card_of(hands[leader])
    best_seat = leader
    points = _POINTS[trump, best] + LAST_TRICK_BONUS
    for offset in range(1, players):
        seat = _seat_after(leader, offset, players)
        card = _card_of(hands[seat])
        points += _POINTS[trump, card]
        if (_BEATEN[trump, best] >> card) & 1:
            best, best_seat = card, seat
    return points if _side(best_seat, players) == 0 else 0


@jit(cache=True, inline="always")
def _count(mask: int) -> int:
    """Return how many cards ``mask`` holds."""
    return int(
        _BYTE_COUNT[mask & 255]
        + _BYTE_COUNT[(mask >> 8) & 255]
        + _BYTE_COUNT[(mask >> 16) & 255]
        + _BYTE_COUNT[(mask >> 24) & 255]
    )


@jit(cache=True, inline="always")
def _run_from_top(hand: int, alive: int, trump: int, suit: int, most: int) -> tuple[int, int]:
    """Return how many of a suit's top ``alive`` cards ``hand`` holds without a gap (at most
    ``most``), and their points: the cards it can cash one after the other."""
    run = 0
    points = 0
    for place in range(8):
        if run == most:
            break
        card = _TOP_DOWN[trump, suit, place]
        bit = 1 << card
        if alive & bit:
            if hand & bit == 0:
                break
            run += 1
            points += _POINTS[trump, card]
    return run, points


@jit(cache=True, inline="always")
def _top_trumps(hands: np.ndarray, trump: int, players: int, alive: int) -> tuple[int, int]:
    """Return the side that holds the top trump alive and the points of that side's trumps
    above any of the other side's: whenever one falls, the trick goes to it or to a higher
    trump of its own side. (-1, 0) without trumps alive."""
    owner = -1
    points = 0
    for place in range(8):
        card = _TOP_DOWN[trump, trump, place]
        bit = 1 << card
        if alive & bit == 0:
            continue
        seat = 0
        while hands[seat] & bit == 0:
            seat += 1
        side = _side(seat, players)
        if owner < 0:
            owner = side
        elif side != owner:
            break
        points += _POINTS[trump, card]
    return owner, points


@jit(cache=True, inline="always")
def _sure_points(hands: np.ndarray, leader: int, trump: int, players: int, alive: int) -> int:
    """Return points the leader's side takes for sure from a trick start on (quick tricks);
    -1 when it takes every trick.

    The leader cashes its master trumps, then, once no other seat can trump them, its masters
    of the other suits. Each such trick gives at least the leader's own card; a seat that still
    holds trumps must follow every side suit counted, or mandatory trumping could win it.
    """
    hand = hands[leader]
    trump_tricks, points = _run_from_top(hand, alive, trump, trump, 8)
    tricks = trump_tricks
    for suit in range(4):
        if suit == trump or hand & _SUITS[suit] == 0:
            continue
        most = 8
        for seat in range(players):
            if seat != leader and _count(hands[seat] & _SUITS[trump]) > trump_tricks:
                most = min(most, _count(hands[seat] & _SUITS[suit]))
        run, run_points = _run_from_top(hand, alive, trump, suit, most)
        tricks += run
        points += run_points
    return -1 if tricks >= _count(hand) else points


@jit(cache=True, inline="always")
def _quick_bounds(hands: np.ndarray, leader: int, trump: int, players: int) -> tuple[int, int]:
    """Return bounds on side 0's points from a trick start on, found without searching.

    Side 0 takes at least nothing and at most every point left; at least its top trumps when
    it holds the top of the suit and at most what the other side's top trumps leave; and the
    side on lead takes at least its quick tricks.
    """
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    remaining = LAST_TRICK_BONUS
    for suit in range(4):
        remaining += _SUIT_POINTS[trump, suit, (alive >> (8 * suit)) & 255]
    lower, upper = 0, remaining
    owner, owned = _top_trumps(hands, trump, players, alive)
    if owner == 0:
        lower = owned
    elif owner == 1:
        upper = remaining - owned
    sure = _sure_points(hands, leader, trump, players, alive)
    if sure < 0:  # the side on lead takes every trick
        sure = remaining
    if _side(leader, players) == 0:
        lower = max(lower, sure)
    else:
        upper = min(upper, remaining - sure)
    return lower, upper


@jit(cache=True)
def _quick_bounds_of(hands: np.ndarray, leader: int, trump: int, players: int) -> Any:
    """``_quick_bounds`` as a call of its own, for ``quick_bounds``."""
    return _quick_bounds(hands, leader, trump, players)


def quick_bounds(pos: PlayPosition) -> tuple[int, int]:
    """Return the bounds the search knows on side 0's points from a trick start ``pos`` on,
    before it searches."""
    if pos.trick:
        raise ValueError("quick bounds are for trick starts")
    if not any(pos.hands):
        return 0, 0
    hands = np.array(pos.hands, dtype=np.int64)
    lower, upper = _quick_bounds_of(hands, pos.leader, pos.trump, pos.players)
    return int(lower), int(upper)


@jit(cache=True, inline="always")
def _drop_equivalent(legal_cards: int, alive: int, trump: int) -> int:
    """Keep one card of each run of pointless cards with nothing alive between them.

    Two such cards of one hand lead to the same value, so searching both is wasted.
    """
    kept = legal_cards
    for suit in range(4):
        if legal_cards & _SUITS[suit] == 0:
            continue
        pointless = 2 if suit == trump else 3  # 7 8 (trumps) or 7 8 9, lowest first
        mine_below = False
        for rank in range(pointless):
            bit = 1 << (8 * suit + rank)
            if legal_cards & bit:
                if mine_below:
                    kept ^= bit
                mine_below = True
            elif alive & bit:
                mine_below = False
    return kept


@jit(cache=True, inline="always")
def _settled(frame: np.ndarray, lower: int, upper: int) -> bool:
    """Say whether bounds on a node's value fall outside its window, setting the value if so."""
    if lower >= frame[BETA]:
        frame[VALUE] = lower
        return True
    if upper <= frame[ALPHA]:
        frame[VALUE] = upper
        return True
    return False


@jit(cache=True, inline="always")
def _enter(
    frame: np.ndarray,
    hands: np.ndarray,
    rules: int,
    row: np.ndarray,
    scores: np.ndarray,
    table: np.ndarray,
) -> bool:
    """Open a node: answer from the table when it can (True), else order its moves."""
    trump = rules & 3
    players = _players(rules)
    leader, played = frame[LEADER], frame[PLAYED]
    seat = _seat_after(leader, played, players)
    hand = hands[seat]
    frame[SLOT] = -1
    frame[LOWER], frame[UPPER] = -INFINITY, INFINITY
    frame[BEST_MOVE] = -1
    remembered = -1
    if played == 0:
        if hand == 0:
            frame[VALUE] = 0
            return True
        if hand & (hand - 1) == 0:
            frame[VALUE] = _last_trick(hands, leader, trump, players)
            return True
        lower, upper = _quick_bounds(hands, leader, trump, players)
        if _settled(frame, lower, upper):
            return True
        slot = _slot(hands, leader, rules)
        frame[SLOT] = slot
        if (
            table[slot, TAG] == leader + 4 * rules + 16
            and table[slot, 0] == hands[0]
            and table[slot, 1] == hands[1]
            and table[slot, 2] == hands[2]
            and table[slot, 3] == hands[3]
        ):
            lower, upper = table[slot, TABLE_LOWER], table[slot, TABLE_UPPER]
            frame[LOWER], frame[UPPER] = lower, upper
            remembered = table[slot, TABLE_MOVE]
            # The bounds only cut off: narrowing the window to them gives wrong fail-soft values
            # in rare deep positions.
            if _settled(frame, lower, upper):
                return True
    frame[WINDOW_ALPHA], frame[WINDOW_BETA] = frame[ALPHA], frame[BETA]
    best, best_seat = frame[BEST], frame[BEST_SEAT]
    free = (rules & 4) != 0 and played > 0 and best_seat == (seat + 2) & 3
    legal_cards = _legal(hand, played, frame[LED], best, trump, free)
    others = (hands[0] | hands[1] | hands[2] | hands[3] | frame[TRICK]) & ~hand
    legal_cards = _drop_equivalent(legal_cards, others, trump)
    count = _order(legal_cards, others, seat, trump, played, best, best_seat, players, row, scores)
    if remembered >= 0:
        _bring_forward(row, count, remembered)
    ends_trick = played == players - 1 and hand & (hand - 1) != 0
    if ends_trick and _cut_by_next_trick(frame, hands, rules, row, count, table):
        return True
    frame[COUNT] = count
    frame[NEXT] = 0
    frame[VALUE] = -INFINITY if _side(seat, players) == 0 else INFINITY
    return False


@jit(cache=True, inline="always")
def _cut_by_next_trick(
    frame: np.ndarray,
    hands: np.ndarray,
    rules: int,
    row: np.ndarray,
    count: int,
    table: np.ndarray,
) -> bool:
    """Cut off the trick's last card from the table's bounds on the tricks it would lead to.

    Each card that ends the trick leads to a trick start the table may already bound; one whose
    bound alone settles this node's window saves searching any card (enhanced transposition
    cutoff). Set the node's value and say True when that happens.
    """
    trump = rules & 3
    players = _players(rules)
    seat = _seat_after(frame[LEADER], frame[PLAYED], players)
    maximizing = _side(seat, players) == 0
    for position in range(count):
        card = row[position]
        best, best_seat = frame[BEST], frame[BEST_SEAT]
        if (_BEATEN[trump, best] >> card) & 1:
            best_seat = seat
        offset = frame[GAINED] + _POINTS[trump, card] if _side(best_seat, players) == 0 else 0
        hands[seat] ^= 1 << card
        slot = _slot(hands, best_seat, rules)
        known = (
            table[slot, TAG] == best_seat + 4 * rules + 16
            and table[slot, 0] == hands[0]
            and table[slot, 1] == hands[1]
            and table[slot, 2] == hands[2]
            and table[slot, 3] == hands[3]
        )
        hands[seat] ^= 1 << card
        if not known:
            continue
        if maximizing and table[slot, TABLE_LOWER] + offset >= frame[BETA]:
            frame[VALUE] = table[slot, TABLE_LOWER] + offset
            return True
        if not maximizing and table[slot, TABLE_UPPER] + offset <= frame[ALPHA]:
            frame[VALUE] = table[slot, TABLE_UPPER] + offset
            return True
    return False


@jit(cache=True, inline="always")
def _bring_forward(row: np.ndarray, count: int, card: int) -> None:
    """Move ``card`` to the front of the first ``count`` cards of ``row``, if it is there.

    The card that decided this trick start last time is tried first: each probe of a solve
    searches the same positions again, and the move that settled a position then most often
    settles it now, so the other moves are cut off sooner.
    """
    for position in range(count):
        if row[position] == card:
            while position > 0:
                row[position] = row[position - 1]
                position -= 1
            row[0] = card
            return


@jit(cache=True, inline="always")
def _descend(
    frame: np.ndarray, child: np.ndarray, hands: np.ndarray, trump: int, players: int, card: int
) -> None:
    """Play ``card`` at ``frame`` and set up the child node."""
    leader, played = frame[LEADER], frame[PLAYED]
    seat = _seat_after(leader, played, players)
    best, best_seat, led = frame[BEST], frame[BEST_SEAT], frame[LED]
    hands[seat] ^= 1 << card
    if played == 0:
        best, best_seat, led = card, seat, card >> 3
    elif (_BEATEN[trump, best] >> card) & 1:
        best, best_seat = card, seat
    points = frame[GAINED] + _POINTS[trump, card]
    offset = 0
    if played == players - 1:
        if hands[0] == 0 and hands[1] == 0 and hands[2] == 0 and hands[3] == 0:
            points += LAST_TRICK_BONUS
        offset = points if _side(best_seat, players) == 0 else 0
        child[LEADER], child[PLAYED], child[LED] = best_seat, 0, -1
        child[BEST], child[BEST_SEAT], child[GAINED] = -1, -1, 0
        child[TRICK] = 0
    else:
        child[LEADER], child[PLAYED], child[LED] = leader, played + 1, led
        child[BEST], child[BEST_SEAT], child[GAINED] = best, best_seat, points
        child[TRICK] = frame[TRICK] | (1 << card)
    frame[OFFSET] = offset
    child[ALPHA], child[BETA] = frame[ALPHA] - offset, frame[BETA] - offset


@jit(cache=True, inline="always")
def _close(frame: np.ndarray, hands: np.ndarray, rules: int, table: np.ndarray) -> None:
    """Store a searched trick start's value as a bound or an exact value."""
    slot = frame[SLOT]
    if slot < 0:
        return
    value, lower, upper = frame[VALUE], frame[LOWER], frame[UPPER]
    if value <= frame[WINDOW_ALPHA]:
        upper = value
    elif value >= frame[WINDOW_BETA]:
        lower = value
    else:
        lower = upper = value
    for i in range(4):
        table[slot, i] = hands[i]
    table[slot, TAG] = frame[LEADER] + 4 * rules + 16
    table[slot, TABLE_LOWER] = lower
    table[slot, TABLE_UPPER] = upper
    table[slot, TABLE_MOVE] = frame[BEST_MOVE]


# Where a paused search stands: its depth, whether it returns from that depth, whether it is
# done, and its value once done.
DEPTH, RETURNING, DONE, RESULT, NODES = range(5)
STATE_FIELDS = 5


@jit(cache=True)
def _start(
    hands: np.ndarray,
    rules: int,
    root: np.ndarray,
    rows: np.ndarray,
    scores: np.ndarray,
    frames: np.ndarray,
    table: np.ndarray,
    state: np.ndarray,
) -> None:
    """Open the root frame of a search."""
    frames[0, :] = root
    returning = _enter(frames[0], hands, rules, rows[0], scores[0], table)
    state[DEPTH], state[RETURNING], state[DONE], state[RESULT] = 0, returning, 0, 0


@jit(cache=True)
def _search(
    hands: np.ndarray,
    rules: int,
    rows: np.ndarray,
    scores: np.ndarray,
    frames: np.ndarray,
    table: np.ndarray,
    state: np.ndarray,
    quota: int,
) -> bool:
    """Run a started search for at most ``quota`` nodes (fail-soft alpha-beta); say if done.

    A search that runs out of nodes stops before entering a child and resumes there on the next
    call; the table only ever receives finished nodes, so an abandoned search leaves it sound.
    """
    trump = rules & 3
    players = _players(rules)
    depth = state[DEPTH]
    returning = state[RETURNING] == 1
    nodes = 0
    while True:
        frame = frames[depth]
        if returning:
            result: int = frame[VALUE]
            if depth == 0:
                state[DONE], state[RESULT] = 1, result
                state[NODES] += nodes
                return True
            depth -= 1
            frame = frames[depth]
            seat = _seat_after(frame[LEADER], frame[PLAYED], players)
            hands[seat] ^= 1 << rows[depth, frame[NEXT]]
            child = result + frame[OFFSET]
            if _side(seat, players) == 0:
                if child > frame[VALUE]:
                    frame[VALUE], frame[BEST_MOVE] = child, rows[depth, frame[NEXT]]
                frame[ALPHA] = max(frame[ALPHA], frame[VALUE])
            else:
                if child < frame[VALUE]:
                    frame[VALUE], frame[BEST_MOVE] = child, rows[depth, frame[NEXT]]
                frame[BETA] = min(frame[BETA], frame[VALUE])
            frame[NEXT] += 1
            if frame[ALPHA] >= frame[BETA]:
                frame[NEXT] = frame[COUNT]
            returning = False
        if frame[NEXT] >= frame[COUNT]:
            _close(frame, hands, rules, table)
            returning = True
            continue
        if nodes >= quota:
            state[DEPTH], state[RETURNING] = depth, 0
            state[NODES] += nodes
            return False
        nodes += 1
        _descend(frame, frames[depth + 1], hands, trump, players, rows[depth, frame[NEXT]])
        depth += 1
        returning = _enter(frames[depth], hands, rules, rows[depth], scores[depth], table)


class SearchTimeout(Exception):
    """The search ran past its deadline."""


def _aligned_table(entries: int) -> np.ndarray:
    """Return a zeroed table of ``entries`` rows, each row starting a cache line."""
    spare = CACHE_LINE // 8
    buffer = np.zeros(entries * TABLE_COLUMNS + spare, dtype=np.int64)
    skip = (-buffer.ctypes.data % CACHE_LINE) // 8
    return buffer[skip : skip + entries * TABLE_COLUMNS].reshape(entries, TABLE_COLUMNS)


class CompiledSolver:
    """The compiled search with its scratch arrays and transposition table.

    Every search may be given a ``deadline`` (a ``time.perf_counter`` instant): it then runs in
    slices of ``SLICE_NODES`` nodes and raises ``SearchTimeout`` once the deadline has passed.
    """

    def __init__(self, table_bits: int = TABLE_BITS) -> None:
        if table_bits != TABLE_BITS:
            raise ValueError("the table size is compiled in")
        self.rows = np.zeros((MAX_DEPTH, 8), dtype=np.int64)
        self.scores = np.zeros((MAX_DEPTH, 8), dtype=np.int64)
        self.frames = np.zeros((MAX_DEPTH, FRAME_FIELDS), dtype=np.int64)
        self.root = np.zeros(FRAME_FIELDS, dtype=np.int64)
        self.state = np.zeros(STATE_FIELDS, dtype=np.int64)
        self.slice_nodes = SLICE_NODES
        self.table = _aligned_table(1 << table_bits)
        # Write the table once so that its pages are mapped now, not during a timed move.
        self.table.fill(0)

    def value(
        self, pos: PlayPosition, guess: int | None = None, deadline: float | None = None
    ) -> int:
        """Return the points team 0 takes from ``pos`` on, both sides playing perfectly.

        Null-window probes narrow the value down, from the quick bounds of a trick start on:
        from ``guess`` on (MTD(f)) when one is given, by bisection otherwise; the table links
        the probes.
        """
        low, high = (0, remaining_points(pos)) if pos.trick else quick_bounds(pos)
        probe_at = guess
        while low < high:
            if probe_at is None:
                middle = (low + high + 1) // 2
            else:
                middle = min(high, max(low + 1, probe_at))
            probe = self.bounded_value(pos, middle - 1, middle, deadline)
            if probe >= middle:
                low = probe
            else:
                high = probe
            if probe_at is not None:
                probe_at = probe if probe < middle else probe + 1
        return low

    def bounded_value(
        self, pos: PlayPosition, alpha: int, beta: int, deadline: float | None = None
    ) -> int:
        """Return team 0's points from ``pos`` on, exact only inside (alpha, beta)."""
        trump = pos.trump
        trick = pos.trick
        hands = np.array(pos.hands, dtype=np.int64)
        root = self.root
        root[:] = 0
        root[LEADER], root[PLAYED] = pos.leader, len(trick)
        root[LED] = root[BEST] = root[BEST_SEAT] = -1
        if trick:
            best = winning_card(trick, trump)
            root[LED], root[BEST] = trick[0] >> 3, best
            root[BEST_SEAT] = (pos.leader + trick.index(best)) % pos.players
            root[GAINED] = sum(POINTS[trump][card] for card in trick)
            root[TRICK] = sum(1 << card for card in trick)
        root[ALPHA], root[BETA] = alpha, beta
        arrays = (self.rows, self.scores, self.frames, self.table)
        players = pos.players
        rules = trump + 4 * int(pos.protection) + 8 * int(players == 2) + 16 * int(players == 3)
        _start(hands, rules, root, *arrays, self.state)
        if deadline is None:
            _search(hands, rules, *arrays, self.state, UNLIMITED)
            return int(self.state[RESULT])
        # The clock is read before every slice, also the first: many small probes add up.
        while time.perf_counter() <= deadline:
            if _search(hands, rules, *arrays, self.state, self.slice_nodes):
                return int(self.state[RESULT])
        raise SearchTimeout

    def move_values(self, pos: PlayPosition, deadline: float | None = None) -> dict[int, int]:
        """Return, for each legal card of the seat to act, the points its team takes from now.

        Of a run of pointless cards with nothing alive between them, only the lowest is
        searched: the others lead to the same value (as inside the search).
        """
        total = remaining_points(pos)
        seat = pos.to_act
        team = side_of(seat, pos.players)
        legal_cards = legal(pos)
        hands = pos.hands
        alive = hands[0] | hands[1] | hands[2] | hands[3] | sum(1 << card for card in pos.trick)
        searched = _drop_equivalent(legal_cards, alive & ~hands[seat], pos.trump)
        values: dict[int, int] = {}
        run_of_suit: dict[int, int] = {}  # the card last searched in each suit
        guess = None
        for card in cards_of(legal_cards):  # lowest first, so a run's searched card comes first
            if not (searched >> card) & 1:
                values[card] = values[run_of_suit[card >> 3]]
                continue
            run_of_suit[card >> 3] = card
            after = play(pos, card)
            gained = after.points[0] - pos.points[0]
            rest = self.value(after, None if guess is None else guess - gained, deadline)
            team0 = gained + rest
            guess = team0
            values[card] = team0 if team == 0 else total - team0
        return values


_per_thread = threading.local()
# Solvers whose threads search no more, each handed to the next thread that searches: making
# one maps its 64 MB table, about 0.15 s of that thread's first move otherwise.
_spare: list[CompiledSolver] = []


def shared_solver() -> CompiledSolver:
    """Return this thread's solver (its table is worth keeping between moves).

    A search keeps its place in the solver's arrays between two slices, so two threads
    searching with one solver would run on in each other's searches: each thread has its own
    (the embedded worker runs two). A thread's first search takes a spare one if there is.
    """
    solver: CompiledSolver | None = getattr(_per_thread, "solver", None)
    if solver is None:
        try:
            solver = _spare.pop()
        except IndexError:
            solver = CompiledSolver()
        _per_thread.solver = solver
    return solver


def release_solver() -> None:
    """Hand this thread's solver, if it has one, to the next thread that searches."""
    solver: CompiledSolver | None = getattr(_per_thread, "solver", None)
    if solver is not None:
        del _per_thread.solver
        _spare.append(solver)


def solve_jit(pos: PlayPosition) -> tuple[int, int]:
    """Return the card points each team takes from ``pos`` on with perfect play."""
    team0 = shared_solver().value(pos)
    return (team0, remaining_points(pos) - team0)


def compile_solver() -> None:
    """Compile (or load from the cache) the search by solving a small endgame.

    The quick bounds settle so small an endgame before any search, so the search is also run
    once on its own: otherwise its compilation would fall on a player's first move.
    """
    pos = PlayPosition.start((0x3, 0x300, 0x30000, 0x3000000), 0, 0)
    solve_jit(pos)
    shared_solver().bounded_value(pos, -1, remaining_points(pos) + 1)
    # The embedded worker warms up in a thread of its own, a thread pool in the worker's main
    # thread: either way the solver made here goes to the first thread that searches.
    release_solver()
