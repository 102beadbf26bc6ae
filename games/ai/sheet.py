"""The score sheet as the strong search sees it: a sampled deal's margin for a seat.

The solver gives the card points a team takes from a position on, while a round is won on the
sheet. In the palaristi game the sheet has cliffs: a contract made or failed (doubled or
quadrupled when closed), capot's 250, and the bidders' declarations and pilotta that count only
with a trick, all through the Rule of 6. In the classic game a taker whose side totals less
than the defence keeps only its pilotta. :class:`SampleScorer` turns the solver's points into
the engine's round score (``score_round`` or ``score_classic``) for one sampled deal,
declarations and pilotta included, and returns this side's sheet points minus the other
side's, or with three players, this seat's points minus the mean of the other two's (each plays
for themself). The score only grows with the points taken, so scoring the solver's value is the
same as searching the score itself, deal by deal.

Approximations: a side that takes no card points from here on is taken to take no trick from
here on (a trick of Nines and Eights is worth nothing); every declaration held by a seat that
may still announce it is taken to be announced and shown, as the computer players do; and with
three players, the solver gives only what this seat takes against the other two together, so
the margin is a mean over ways the other two may share the rest, and neither ends capot.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import Rank, mask_cards
from games.engine.declarations import Declaration, find_declarations
from games.engine.fast import Mask
from games.engine.observation import Observation
from games.engine.scoring import PILOTTA_POINTS, TRICKS, score_classic, score_round

from .knowledge import Knowledge
from .sampling import played_by_seat

#: With three players, the shares of the rest the first of the other two may take, in quarters:
#: the game of three's margin is their mean (the second takes what the first does not).
THREE_WAY_SPLITS = (1, 2, 3)


@dataclass(frozen=True, slots=True)
class SampleScorer:
    """What decides the round's score in one sampled deal, apart from the card points to come."""

    observation: Observation
    side: int
    shown: tuple[tuple[Declaration, ...], ...]
    pilotta: tuple[int, ...]
    points: tuple[int, ...]
    tricks: tuple[int, ...]
    remaining: int

    def margin(self, future: int) -> float:
        """Return this side's round score minus the other side's, taking ``future`` points."""
        if len(self.points) == 3:
            return self._margin_of_three(future)
        contract = self.observation.contract
        assert contract is not None
        me, other = self.side, 1 - self.side
        points = [0, 0]
        points[me] = self.points[me] + future
        points[other] = self.points[other] + self.remaining - future
        no_trick = [self.tricks[s] == 0 and points[s] == 0 for s in (0, 1)]
        tricks = [0 if no_trick[s] else TRICKS if no_trick[1 - s] else 1 for s in (0, 1)]
        score = score_classic if self.observation.ruleset.is_classic else score_round
        result = score(
            contract,
            (points[0], points[1]),
            (tricks[0], tricks[1]),
            self.shown,
            (self.pilotta[0], self.pilotta[1]),
        )
        return result.score[me] - result.score[other]

    def _margin_of_three(self, future: int) -> float:
        """Return this seat's round score minus the mean of the other two's (the game of three).

        The solver does not say how the other two share the rest, and a contract between them
        can turn on a point of it: the margin is the mean over ``THREE_WAY_SPLITS``, the first of
        the two being the taker when this seat is not.
        """
        contract = self.observation.contract
        assert contract is not None
        me = self.side
        first, second = sorted((side for side in range(3) if side != me), key=contract.team.__ne__)
        rest = self.remaining - future
        margins = []
        for quarters in THREE_WAY_SPLITS:
            # An odd point goes to the taker: ties make contracts, so a tie between the taker
            # and the third player must not come and go with the parity of what is left.
            share = (rest * quarters + 3) // 4
            margins.append(self.margin_of_split(future, {first: share, second: rest - share}))
        return sum(margins) / len(margins)

    def margin_of_split(self, future: int, theirs: dict[int, int]) -> float:
        """Return the game of three's margin when the other two take ``theirs`` from here on."""
        contract = self.observation.contract
        assert contract is not None
        me = self.side
        to_come = {**theirs, me: future}
        points = [self.points[side] + to_come[side] for side in range(3)]
        tricks = [1 if self.tricks[side] or to_come[side] else 0 for side in range(3)]
        if not any(tricks[side] for side in theirs):
            tricks[me] = TRICKS
        result = score_classic(contract, points, tricks, self.shown, self.pilotta)
        return result.score[me] - sum(result.score[side] for side in theirs) / 2


def sample_scorer(
    k: Knowledge, observation: Observation, hands: tuple[Mask, ...], remaining: int
) -> SampleScorer:
    """Return the scorer of a sampled deal (``hands`` by seat) for the seat to act.

    Two sides (the teams of four players, or the two players of the game of two), or the three
    players of the game of three.

    ``remaining`` is the card points still to be taken, the open trick's and the last 10
    included.
    """
    sides = observation.ruleset.sides
    seats = range(k.players)
    played = played_by_seat(observation)
    dealt = [hands[seat] | played[seat] for seat in seats]
    shown: list[list[Declaration]] = [[] for _ in range(sides)]
    for seat in seats:
        shown[k.side(seat)].extend(_declarations(observation, seat, dealt[seat]))
    pilotta = [0] * sides
    trump = k.trump
    pair = 1 << (8 * trump + Rank.KING) | 1 << (8 * trump + Rank.QUEEN)
    for seat in seats:
        if dealt[seat] & pair == pair:
            pilotta[k.side(seat)] = PILOTTA_POINTS
    return SampleScorer(
        observation=observation,
        side=k.side(k.seat),
        shown=tuple(tuple(declarations) for declarations in shown),
        pilotta=tuple(pilotta),
        points=k.points,
        tricks=k.tricks_won,
        remaining=remaining,
    )


def _declarations(observation: Observation, seat: int, dealt: Mask) -> tuple[Declaration, ...]:
    """Return what ``seat`` shows by the end of the round in a deal where it was dealt ``dealt``."""
    if observation.shown[seat]:
        return observation.shown[seat]
    if observation.tricks and len(observation.tricks) > 1:
        return ()  # too late to show
    if observation.announcements[seat]:
        return find_declarations(mask_cards(dealt))
    if observation.tricks:
        return ()  # it let trick 1 pass without announcing
    trick = observation.current_trick
    already = trick is not None and any(
        (trick.leader + position) % observation.players == seat
        for position in range(len(trick.cards))
    )
    if already or seat == observation.seat:
        return ()
    return find_declarations(mask_cards(dealt))
