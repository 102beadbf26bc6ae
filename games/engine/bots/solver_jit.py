"""The open-hand solver compiled with numba: the search of ``solver`` on arrays.

The transposition table is a numpy hash table keyed by the four hands, the leader and the trump;
a value depends on nothing else, so entries stay valid from one solve to the next.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from numba import njit

from ..fast import (
    BEATEN_BY,
    POINTS,
    STRENGTH,
    SUIT_MASKS,
    PlayPosition,
    cards_of,
    legal,
    play,
    winning_card,
)
from .solver import remaining_points

INFINITY = 1000
LAST_TRICK_BONUS = 10
TABLE_BITS = 20
MAX_DEPTH = 33

_BEATEN = np.array(BEATEN_BY, dtype=np.int64)
_POINTS = np.array(POINTS, dtype=np.int64)
_STRENGTH = np.array(STRENGTH, dtype=np.int64)
_SUITS = np.array(SUIT_MASKS, dtype=np.int64)

jit = cast(Callable[..., Callable[[Callable[..., Any]], Callable[..., Any]]], njit)


@jit(cache=True)
def _order(
    legal_cards: int,
    hands: np.ndarray,
    seat: int,
    trump: int,
    played: int,
    best: int,
    best_seat: int,
    row: np.ndarray,
    scores: np.ndarray,
) -> int:
    """Write the legal cards into ``row``, most promising first; return how many."""
    others = 0
    for other in range(4):
        if other != seat:
            others |= hands[other]
    count = 0
    mask = legal_cards
    while mask:
        low = mask & -mask
        card = 0
        while (low >> card) != 1:
            card += 1
        mask ^= low
        points = _POINTS[trump, card]
        strength = _STRENGTH[trump, card]
        if played == 0:
            beaters = others & _BEATEN[trump, card] & _SUITS[card >> 3]
            score = -100 - points if beaters == 0 else points + strength
        elif (best_seat & 1) == (seat & 1):
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


@jit(cache=True)
def _legal(hand: int, played: int, led: int, best: int, trump: int) -> int:
    """Return the legal cards of ``hand`` (fast.legal_mask_from on arrays)."""
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
        return higher if higher else trumps
    return hand


@jit(cache=True)
def _slot(hands: np.ndarray, leader: int, trump: int) -> int:
    """Return the table slot of a trick start."""
    key = (hands[0] * 0x2545F4914F6CDD1D) ^ (hands[1] * 0x5851F42D4C957F2D)
    key ^= (hands[2] * 0x14057B7EF767814F) ^ (hands[3] * 0x1B873593) ^ (leader * 7 + trump * 31)
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
FRAME_FIELDS = 18


@jit(cache=True)
def _card_of(bit: int) -> int:
    """Return the card of a one-card mask."""
    card = 0
    while (bit >> card) != 1:
        card += 1
    return card


@jit(cache=True)
def _last_trick(hands: np.ndarray, leader: int, trump: int) -> int:
    """Return team 0's points from the last trick, every hand holding one card."""
    best = _card_of(hands[leader])
    best_seat = leader
    points = _POINTS[trump, best] + LAST_TRICK_BONUS
    for offset in range(1, 4):
        seat = (leader + offset) & 3
        card = _card_of(hands[seat])
        points += _POINTS[trump, card]
        if (_BEATEN[trump, best] >> card) & 1:
            best, best_seat = card, seat
    return points if (best_seat & 1) == 0 else 0


@jit(cache=True)
def _drop_equivalent(legal_cards: int, alive: int, trump: int) -> int:
    """Keep one card of each run of pointless cards with nothing alive between them.

    Two such cards of one hand lead to the same value, so searching both is wasted.
    """
    kept = legal_cards
    for suit in range(4):
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


@jit(cache=True)
def _enter(
    frame: np.ndarray,
    hands: np.ndarray,
    trump: int,
    row: np.ndarray,
    scores: np.ndarray,
    table_keys: np.ndarray,
    table_bounds: np.ndarray,
) -> bool:
    """Open a node: answer from the table when it can (True), else order its moves."""
    leader, played = frame[LEADER], frame[PLAYED]
    seat = (leader + played) & 3
    hand = hands[seat]
    frame[SLOT] = -1
    frame[LOWER], frame[UPPER] = -INFINITY, INFINITY
    if played == 0:
        if hand == 0:
            frame[VALUE] = 0
            return True
        if hand & (hand - 1) == 0:
            frame[VALUE] = _last_trick(hands, leader, trump)
            return True
        slot = _slot(hands, leader, trump)
        frame[SLOT] = slot
        if (
            table_keys[slot, 4] == leader + 4 * trump + 16
            and table_keys[slot, 0] == hands[0]
            and table_keys[slot, 1] == hands[1]
            and table_keys[slot, 2] == hands[2]
            and table_keys[slot, 3] == hands[3]
        ):
            lower, upper = table_bounds[slot, 0], table_bounds[slot, 1]
            frame[LOWER], frame[UPPER] = lower, upper
            if lower >= frame[BETA]:
                frame[VALUE] = lower
                return True
            if upper <= frame[ALPHA]:
                frame[VALUE] = upper
                return True
            frame[ALPHA] = max(frame[ALPHA], lower)
            frame[BETA] = min(frame[BETA], upper)
    frame[WINDOW_ALPHA], frame[WINDOW_BETA] = frame[ALPHA], frame[BETA]
    legal_cards = _legal(hand, played, frame[LED], frame[BEST], trump)
    alive = hands[0] | hands[1] | hands[2] | hands[3] | frame[TRICK]
    legal_cards = _drop_equivalent(legal_cards, alive & ~hand, trump)
    best, best_seat = frame[BEST], frame[BEST_SEAT]
    frame[COUNT] = _order(legal_cards, hands, seat, trump, played, best, best_seat, row, scores)
    frame[NEXT] = 0
    frame[VALUE] = -INFINITY if (seat & 1) == 0 else INFINITY
    return False


@jit(cache=True)
def _descend(
    frame: np.ndarray, child: np.ndarray, hands: np.ndarray, trump: int, card: int
) -> None:
    """Play ``card`` at ``frame`` and set up the child node."""
    leader, played = frame[LEADER], frame[PLAYED]
    seat = (leader + played) & 3
    best, best_seat, led = frame[BEST], frame[BEST_SEAT], frame[LED]
    hands[seat] ^= 1 << card
    if played == 0:
        best, best_seat, led = card, seat, card >> 3
    elif (_BEATEN[trump, best] >> card) & 1:
        best, best_seat = card, seat
    points = frame[GAINED] + _POINTS[trump, card]
    offset = 0
    if played == 3:
        if hands[0] == 0 and hands[1] == 0 and hands[2] == 0 and hands[3] == 0:
            points += LAST_TRICK_BONUS
        offset = points if (best_seat & 1) == 0 else 0
        child[LEADER], child[PLAYED], child[LED] = best_seat, 0, -1
        child[BEST], child[BEST_SEAT], child[GAINED] = -1, -1, 0
        child[TRICK] = 0
    else:
        child[LEADER], child[PLAYED], child[LED] = leader, played + 1, led
        child[BEST], child[BEST_SEAT], child[GAINED] = best, best_seat, points
        child[TRICK] = frame[TRICK] | (1 << card)
    frame[OFFSET] = offset
    child[ALPHA], child[BETA] = frame[ALPHA] - offset, frame[BETA] - offset


@jit(cache=True)
def _close(frame: np.ndarray, hands: np.ndarray, trump: int, table_keys: np.ndarray,
           table_bounds: np.ndarray) -> None:  # fmt: skip
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
        table_keys[slot, i] = hands[i]
    table_keys[slot, 4] = frame[LEADER] + 4 * trump + 16
    table_bounds[slot, 0] = lower
    table_bounds[slot, 1] = upper


@jit(cache=True)
def _search(
    hands: np.ndarray,
    trump: int,
    root: np.ndarray,
    rows: np.ndarray,
    scores: np.ndarray,
    frames: np.ndarray,
    table_keys: np.ndarray,
    table_bounds: np.ndarray,
) -> int:
    """Return team 0's points from the root frame on within its window (fail-soft alpha-beta)."""
    frames[0, :] = root
    depth = 0
    returning = _enter(frames[0], hands, trump, rows[0], scores[0], table_keys, table_bounds)
    while True:
        frame = frames[depth]
        if returning:
            result: int = frame[VALUE]
            if depth == 0:
                return result
            depth -= 1
            frame = frames[depth]
            seat = (frame[LEADER] + frame[PLAYED]) & 3
            hands[seat] ^= 1 << rows[depth, frame[NEXT]]
            child = result + frame[OFFSET]
            if (seat & 1) == 0:
                frame[VALUE] = max(frame[VALUE], child)
                frame[ALPHA] = max(frame[ALPHA], frame[VALUE])
            else:
                frame[VALUE] = min(frame[VALUE], child)
                frame[BETA] = min(frame[BETA], frame[VALUE])
            frame[NEXT] += 1
            if frame[ALPHA] >= frame[BETA]:
                frame[NEXT] = frame[COUNT]
            returning = False
        if frame[NEXT] >= frame[COUNT]:
            _close(frame, hands, trump, table_keys, table_bounds)
            returning = True
            continue
        _descend(frame, frames[depth + 1], hands, trump, rows[depth, frame[NEXT]])
        depth += 1
        returning = _enter(
            frames[depth], hands, trump, rows[depth], scores[depth], table_keys, table_bounds
        )


class CompiledSolver:
    """The compiled search with its scratch arrays and transposition table."""

    def __init__(self, table_bits: int = TABLE_BITS) -> None:
        if table_bits != TABLE_BITS:
            raise ValueError("the table size is compiled in")
        self.rows = np.zeros((MAX_DEPTH, 8), dtype=np.int64)
        self.scores = np.zeros((MAX_DEPTH, 8), dtype=np.int64)
        self.frames = np.zeros((MAX_DEPTH, FRAME_FIELDS), dtype=np.int64)
        self.root = np.zeros(FRAME_FIELDS, dtype=np.int64)
        self.table_keys = np.zeros((1 << table_bits, 5), dtype=np.int64)
        self.table_bounds = np.zeros((1 << table_bits, 2), dtype=np.int64)

    def value(self, pos: PlayPosition) -> int:
        """Return the points team 0 takes from ``pos`` on, both sides playing perfectly."""
        # Bisection with null windows: each probe is cheap, and the table links them.
        low, high = 0, remaining_points(pos)
        while low < high:
            middle = (low + high + 1) // 2
            probe = self.bounded_value(pos, middle - 1, middle)
            if probe >= middle:
                low = probe
            else:
                high = probe
        return low

    def bounded_value(self, pos: PlayPosition, alpha: int, beta: int) -> int:
        """Return team 0's points from ``pos`` on, exact only inside (alpha, beta)."""
        trump = pos.trump
        trick = pos.trick
        hands = np.array(pos.hands, dtype=np.int64)
        if not trick:
            return self._run(hands, trump, pos.leader, 0, -1, -1, -1, 0, 0, alpha, beta)
        best = winning_card(trick, trump)
        best_seat = (pos.leader + trick.index(best)) % 4
        gained = sum(POINTS[trump][card] for card in trick)
        trick_mask = sum(1 << card for card in trick)
        led = trick[0] >> 3
        return self._run(
            hands, trump, pos.leader, len(trick), led, best, best_seat, gained, trick_mask,
            alpha, beta,
        )  # fmt: skip

    def _run(
        self,
        hands: np.ndarray,
        trump: int,
        leader: int,
        played: int,
        led: int,
        best: int,
        best_seat: int,
        gained: int,
        trick_mask: int,
        alpha: int,
        beta: int,
    ) -> int:
        root = self.root
        root[:] = 0
        root[LEADER], root[PLAYED], root[LED] = leader, played, led
        root[BEST], root[BEST_SEAT], root[GAINED] = best, best_seat, gained
        root[ALPHA], root[BETA] = alpha, beta
        root[TRICK] = trick_mask
        value = _search(
            hands, trump, root, self.rows, self.scores, self.frames,
            self.table_keys, self.table_bounds,
        )  # fmt: skip
        return int(value)

    def move_values(self, pos: PlayPosition) -> dict[int, int]:
        """Return, for each legal card of the seat to act, the points its team takes from now."""
        total = remaining_points(pos)
        team = pos.to_act % 2
        values = {}
        for card in cards_of(legal(pos)):
            after = play(pos, card)
            team0 = after.points[0] - pos.points[0] + self.value(after)
            values[card] = team0 if team == 0 else total - team0
        return values


_shared: CompiledSolver | None = None


def shared_solver() -> CompiledSolver:
    """Return this process's solver (its table is worth keeping between moves)."""
    global _shared
    if _shared is None:
        _shared = CompiledSolver()
    return _shared


def solve_jit(pos: PlayPosition) -> tuple[int, int]:
    """Return the card points each team takes from ``pos`` on with perfect play."""
    team0 = shared_solver().value(pos)
    return (team0, remaining_points(pos) - team0)


def compile_solver() -> None:
    """Compile (or load from the cache) the search by solving a small endgame."""
    pos = PlayPosition.start((0x3, 0x300, 0x30000, 0x3000000), 0, 0)
    solve_jit(pos)
