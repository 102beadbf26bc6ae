"""The score sheet as the strong search sees it: a sampled deal's margin for a seat.

The solver gives the card points a team takes from a position on, while a round is won on the
sheet. In the palaristi game the sheet has cliffs: a contract made or failed (doubled or
quadrupled when closed), capot's 250, and the bidders' declarations and pilotta that count only
with a trick, all through the Rule of 6. In the classic game a taker whose side totals less
than the defence keeps only its pilotta. :class:`SampleScorer` turns the solver's points into
the engine's round score (``score_round`` or ``score_classic``) for one sampled deal,
declarations and pilotta included, and returns this side's sheet points minus the other
side's. The score only grows with the points taken, so scoring the solver's value is the same
as searching the score itself, deal by deal.

Two approximations: a side that takes no card points from here on is taken to take no trick from
here on (a trick of Nines and Eights is worth nothing), and every declaration held by a seat that
may still announce it is taken to be announced and shown, as the computer players do.
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

    def margin(self, future: int) -> int:
        """Return this side's round score minus the other side's, taking ``future`` points."""
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


def sample_scorer(
    k: Knowledge, observation: Observation, hands: tuple[Mask, ...], remaining: int
) -> SampleScorer:
    """Return the scorer of a sampled deal (``hands`` by seat) for the seat to act.

    Two sides: the teams of four players, or the two players of the game of two.

    ``remaining`` is the card points still to be taken, the open trick's and the last 10
    included.
    """
    if observation.ruleset.sides != 2:
        raise ValueError("the sample scorer is for two sides")
    seats = range(k.players)
    played = played_by_seat(observation)
    dealt = [hands[seat] | played[seat] for seat in seats]
    shown: list[list[Declaration]] = [[], []]
    for seat in seats:
        shown[k.side(seat)].extend(_declarations(observation, seat, dealt[seat]))
    pilotta = [0, 0]
    trump = k.trump
    pair = 1 << (8 * trump + Rank.KING) | 1 << (8 * trump + Rank.QUEEN)
    for seat in seats:
        if dealt[seat] & pair == pair:
            pilotta[k.side(seat)] = PILOTTA_POINTS
    return SampleScorer(
        observation=observation,
        side=k.side(k.seat),
        shown=(tuple(shown[0]), tuple(shown[1])),
        pilotta=(pilotta[0], pilotta[1]),
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
