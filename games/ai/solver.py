"""The open-hand solver, pure Python: exact card points with both sides playing perfectly.

This is the reference for the compiled solver in ``solver_jit``: the same alpha-beta search with
a transposition table at trick starts and the same move ordering, written for reading. Values
are the card points (the last trick's 10 included) team 0 takes from a position on, counting the
cards already on the open trick.
"""

from __future__ import annotations

from games.engine.fast import (
    BEATEN_BY,
    LAST_TRICK_BONUS,
    POINTS,
    STRENGTH,
    SUIT_MASKS,
    Mask,
    PlayPosition,
    cards_of,
    legal_mask_from,
    side_of,
    winning_card,
)

INFINITY = 1000
NO_CARD = -1


def remaining_points(pos: PlayPosition) -> int:
    """Return the points still to be taken: cards in hands and on the trick, and the last 10."""
    points = POINTS[pos.trump]
    held = sum(points[card] for hand in pos.hands for card in cards_of(hand))
    if not any(pos.hands) and not pos.trick:
        return 0
    return held + sum(points[card] for card in pos.trick) + LAST_TRICK_BONUS


def order_moves(
    moves: Mask,
    hands: tuple[Mask, ...],
    seat: int,
    trump: int,
    best: int,
    best_seat: int,
    players: int = 4,
) -> list[int]:
    """Return the moves most likely to be best first: cheap wins, fed points, low discards."""
    strength, points = STRENGTH[trump], POINTS[trump]
    others = 0
    for other, hand in enumerate(hands):
        if other != seat:
            others |= hand
    cards = cards_of(moves)
    if best == NO_CARD:
        # Leading: masters first (most points first), then low cards.
        return sorted(
            cards,
            key=lambda c: (
                -100 - points[c]
                if not others & BEATEN_BY[trump][c] & SUIT_MASKS[c >> 3]
                else points[c] + strength[c]
            ),
        )
    if side_of(best_seat, players) == side_of(seat, players):
        return sorted(
            cards,
            key=lambda c: -points[c] if not BEATEN_BY[trump][best] >> c & 1 else 50 + strength[c],
        )
    return sorted(
        cards, key=lambda c: strength[c] - 100 if BEATEN_BY[trump][best] >> c & 1 else points[c]
    )


class Solver:
    """Alpha-beta over card points, with a transposition table keyed by hands and leader.

    ``protection``: the classic game of four's partner protection; ``players``: 4, 3 (the classic
    game of three, seat 0 against the other two) or 2 (the classic game of two); ``side_of``
    names a seat's side.
    """

    def __init__(self, trump: int, protection: bool = False, players: int = 4) -> None:
        self.trump = trump
        self.protection = protection
        self.players = players
        self.table: dict[tuple[Mask, Mask, Mask, Mask, int], tuple[int, int]] = {}
        self.nodes = 0

    def value(self, pos: PlayPosition) -> int:
        """Return the points team 0 takes from ``pos`` on, both sides playing perfectly."""
        return self.search(pos, -INFINITY, INFINITY)

    def search(self, pos: PlayPosition, alpha: int, beta: int) -> int:
        """Return team 0's points from ``pos`` within the window (fail-soft)."""
        trick = pos.trick
        best = winning_card(trick, self.trump) if trick else NO_CARD
        best_seat = (pos.leader + trick.index(best)) % self.players if trick else -1
        gained = sum(POINTS[self.trump][card] for card in trick)
        return self._search(
            list(pos.hands), pos.leader, len(trick), best, best_seat, gained, trick, alpha, beta
        )

    def _search(
        self,
        hands: list[Mask],
        leader: int,
        played: int,
        best: int,
        best_seat: int,
        gained: int,
        trick: tuple[int, ...],
        alpha: int,
        beta: int,
    ) -> int:
        self.nodes += 1
        if played == 0:
            return self._trick_start(hands, leader, alpha, beta)
        seat = (leader + played) % self.players
        trump = self.trump
        free = self.protection and best_seat == (seat + 2) % 4
        moves = legal_mask_from(hands[seat], trick[0] >> 3, best, trump, free)
        maximizing = side_of(seat, self.players) == 0
        value = -INFINITY if maximizing else INFINITY
        for card in order_moves(moves, tuple(hands), seat, trump, best, best_seat, self.players):
            hands[seat] ^= 1 << card
            takes = BEATEN_BY[trump][best] >> card & 1
            new_best, new_seat = (card, seat) if takes else (best, best_seat)
            points = gained + POINTS[trump][card]
            if played == self.players - 1:
                child = self._after_trick(hands, new_seat, points, alpha, beta)
            else:
                child = self._search(
                    hands, leader, played + 1, new_best, new_seat, points, (*trick, card),
                    alpha, beta,
                )  # fmt: skip
            hands[seat] ^= 1 << card
            if maximizing:
                value = max(value, child)
                alpha = max(alpha, value)
            else:
                value = min(value, child)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return value

    def _after_trick(
        self, hands: list[Mask], winner: int, points: int, alpha: int, beta: int
    ) -> int:
        if not any(hands):
            points += LAST_TRICK_BONUS
        mine = points if side_of(winner, self.players) == 0 else 0
        return mine + self._trick_start(hands, winner, alpha - mine, beta - mine)

    def _trick_start(self, hands: list[Mask], leader: int, alpha: int, beta: int) -> int:
        if not hands[leader]:
            return 0
        key = (hands[0], hands[1], hands[2], hands[3], leader)
        lower, upper = self.table.get(key, (-INFINITY, INFINITY))
        if lower >= beta:
            return lower
        if upper <= alpha:
            return upper
        # The window is not narrowed to the stored bounds: with fail-soft values that gives
        # wrong values in rare deep positions; the bounds serve for cut-offs only.
        window_alpha, window_beta = alpha, beta
        trump = self.trump
        maximizing = side_of(leader, self.players) == 0
        value = -INFINITY if maximizing else INFINITY
        a, b = window_alpha, window_beta
        players = self.players
        for card in order_moves(hands[leader], tuple(hands), leader, trump, NO_CARD, -1, players):
            hands[leader] ^= 1 << card
            child = self._search(hands, leader, 1, card, leader, POINTS[trump][card], (card,), a, b)
            hands[leader] ^= 1 << card
            if maximizing:
                value = max(value, child)
                a = max(a, value)
            else:
                value = min(value, child)
                b = min(b, value)
            if a >= b:
                break
        if value <= window_alpha:
            upper = value
        elif value >= window_beta:
            lower = value
        else:
            lower = upper = value
        self.table[key] = (lower, upper)
        return value


def solve(pos: PlayPosition) -> tuple[int, int]:
    """Return the card points each team takes from ``pos`` on with perfect play."""
    total = remaining_points(pos)
    team0 = Solver(pos.trump, pos.protection, pos.players).value(pos)
    return (team0, total - team0)


def move_values(pos: PlayPosition, solver: Solver | None = None) -> dict[int, int]:
    """Return, for each legal card of the seat to act, the points its team takes from ``pos`` on."""
    from games.engine.fast import legal, play

    solver = solver or Solver(pos.trump, pos.protection, pos.players)
    total = remaining_points(pos)
    team = side_of(pos.to_act, pos.players)
    values = {}
    for card in cards_of(legal(pos)):
        after = play(pos, card)
        gained = after.points[0] - pos.points[0]
        team0 = gained + solver.value(after)
        values[card] = team0 if team == 0 else total - team0
    return values
