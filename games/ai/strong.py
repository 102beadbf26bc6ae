"""The strong bot: determinized open-hand search for the cards, the fitted model for the auction.

The cards: deals consistent with what the seat saw (drawn as likely as the opponents' cards so
far, ``play_reading``, and the other seats' silences, ``silence``, make them) are sampled and
solved exactly, and each card's points in each deal are scored as the sheet would score them
(``sheet``). The classic game: with four players (under partner protection), two and three,
the cards are searched the same way; the taking is the medium heuristic's. With three players,
each for themself, the solver sees the seat to act against the other two taken together, the
worst they could do to it (the paranoid view of a game of more than two sides).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from games.engine.actions import (
    BIDS,
    CLOSE,
    MAX_BID,
    MIN_BID,
    PASS,
    PLAYS,
    RECLOSE,
    Action,
    Bid,
    Pass,
    Play,
)
from games.engine.assist import obligatory_action, with_pilotta_call
from games.engine.fast import Mask, PlayPosition, mask_of, popcount
from games.engine.observation import Observation

from .auction_view import AuctionView, read_auction
from .evaluator import (
    bidder_estimate,
    bidding_model,
    chance_at_least,
    defence_shift,
    partner_shift,
)
from .hand_value import declaration_points
from .heuristic import MEDIUM, Knobs, choose_heuristic, play_card
from .knowledge import Knowledge, read_knowledge
from .play_reading import read_plays
from .postponed import Margin, PostponedLeads, measure_leads, postponed_choice
from .sampling import played_by_seat, sample_consistent
from .sheet import sample_scorer
from .signals import read_discards, signalled_card
from .silence import read_silences
from .solver import remaining_points
from .solver_jit import SearchTimeout, shared_solver

DEFAULT_BUDGET = 0.5  # seconds per card decision, honoured to within one search slice
MAX_SAMPLES = 200
# Draw the sampled deals as likely as the other seats' bids and opening passes make them. Off:
# against the medium bot, on the same 1,000 duplicate deals (seed 1), it scored +9.15 per deal
# (+8.25 .. +10.04) where plain sampling scored +9.18 (+8.30 .. +10.06), and the draws lengthen
# a move's median from 53 to 71 ms.
AUCTION_READING = False
# A bidder's estimate is taken to be at least its highest bid plus ``BID_MARGIN``: the strong
# auction never bids closer to its estimate than its offset of 20, and the medium one bids some
# 40 under the same estimate.
BID_MARGIN = 20
# A seat that passed before anyone bid is taken to hold at most ``MIN_BID + PASS_MARGIN`` in
# its best suit: the strong auction's opening passes never hold more than 100 by its estimate,
# the medium one's 121 in nineteen of twenty.
PASS_MARGIN = 45
# Read the auction only when defending, where the bids describe the contract's side, the hands
# the defence lacks most. Off: paired with the site's settings against the medium bot on 360
# duplicate deals of seed 4 (``python -m games.ai.compare --variant site --variant
# defence-auction-reading``), it scored +0.09 per deal (95% CI -0.76 .. +0.95), 136 deals
# differing.
DEFENCE_AUCTION_READING = False
# Reading the auction as a window, the way the strong auction bids, is not better either: a
# bidder's estimate is taken to be under its highest bid plus ``BID_CEILING`` (the strong
# auction bids its estimate less 20, rounded down to the ten), and a pass over an opponent's
# bid to hold under it plus ``PASS_OVER_MARGIN`` (the strong auction would have bid from 30
# up). Asked at 1,238 positions the strong bot met against the medium cards, all four seats
# bidding with the strong auction (``python -m games.ai.regret --variant site --variant
# auction-window --deals 60 --seed 5``), its regret per decision moved by -0.025 sheet points
# (95% CI -0.230 .. +0.180): even read as exactly as the auction was bid, the auction changes
# few cards. Both are unset (not read) on the site.
BID_CEILING: float | None = None
PASS_OVER_MARGIN: float | None = None
# How softly a sampled hand on the wrong side of those bounds is discounted.
AUCTION_SPREAD = 10.0
# Draws allowed to find a deal the auction and the cards played make likely.
AUCTION_DRAWS = 40
# Draw the sampled deals as likely as the opponents' cards so far make them, by the rules of
# thumb (``play_reading``), and as the other seats' silences make them: no announcement in
# trick 1, the King or Queen of trumps played without a pilotta call (``silence``). On: against
# the medium bot, paired with plain sampling on the same duplicate deals (``python -m
# games.ai.compare``), both readings together scored +1.03 per deal on 400 deals of seed 3
# (95% CI +0.21 .. +1.86); the cards read alone scored +0.39 (-0.19 .. +0.97) on 1,000 deals
# of seed 1 and +0.09 (-0.73 .. +0.91) on 500 of seed 2. Reading lengthens a move's median
# from 30 to 80 ms; its p95 stays at the budget.
PLAY_READING = True
SILENCE_READING = True
# Read the partner's cards too, by the same rules of thumb, each card they would not have played
# keeping ``PARTNER_MISMATCH`` of a sampled deal's weight (softer than an opponent's: a partner
# who searches plays by them less often). Off: at 1,634 fixed positions of 80 deals of seed 5
# (``python -m games.ai.regret --variant site --variant partner-reading``) it moved the
# double-dummy regret per decision by -0.09 (95% CI -0.26 .. +0.08), and by +0.01 with the
# opponents' mismatch of 0.2; paired with the site's settings against the medium bot on 200
# duplicate deals of seed 4 (``compare``) it scored -0.57 per deal (-1.68 .. +0.53), 83 deals
# differing, and it lengthens a move's median from 169 to 414 ms.
PARTNER_READING = False
PARTNER_MISMATCH = 0.5
# Keep and read the discard convention between partners (``signals``): a discard denies the
# master of its suit, kept where it costs at most ``SIGNAL_SLACK`` sheet points per sampled deal.
# Off: paired with the site's settings against the medium bot on 300 duplicate deals of seed 4
# (``python -m games.ai.compare --variant site --variant discard-signals``), it scored -0.28
# per deal (95% CI -1.03 .. +0.47), 79 deals differing. Seeing the partner's whole hand is
# worth +2.97 (``ladder --match partner``); this one fact of it is not worth a measurable part.
DISCARD_SIGNALS = False
SIGNAL_SLACK = 1.0
# When the seat leads for the contract's side (and the defence's, with ``POSTPONED_DEFENCE``),
# choose among the ``POSTPONED_CANDIDATES`` best leads by reasoning postponed a trick
# (``postponed``): sampling takes ``POSTPONED_SAMPLING`` of the budget, the rest measures the
# candidates with the seat's next lead chosen once per trick seen (told apart by its counting
# cards only with ``POSTPONED_COARSE``). Off: paired with the site's settings against the medium
# bot on 300 duplicate deals of seed 5 (``python -m games.ai.compare --variant site --variant
# postponed-leads``), it scored +0.09 per deal (95% CI -0.90 .. +1.07); with the defence's
# leads too and coarse tricks (``postponed-all-leads-coarse``), +0.05 (-0.84 .. +0.94). Over
# 1,147 leads of 200 deals of seed 1 (``python -m games.ai.fusion``), choosing the next lead
# deal by deal added +0.08 sheet points per sampled deal to the best lead's value, and the
# choice changed at 2.3% of them: the leads' loss to open-hand play is not this strategy fusion.
POSTPONED_LEADS = False
POSTPONED_SAMPLING = 0.5
POSTPONED_CANDIDATES = 3
POSTPONED_COARSE = False
POSTPONED_DEFENCE = False
# Told of each postponed lead (``python -m games.ai.fusion`` measures with it).
POSTPONED_WATCH: Callable[[PostponedLeads, int, int | None], None] | None = None
# The classic game's taking is the medium heuristic's, looser by ``TAKE_LOOSENESS`` at each table
# size: the strong bot makes more of a contract and defeats more of the others' than the medium
# one. Paired with 0 against the medium bot on 300 duplicate deals (``python -m games.ai.compare
# --players N --variant take-as-medium --variant take-looser``), 8 scored, per deal: with three
# players +2.99 (95% CI +0.78 .. +5.19, seed 1) and +2.50 (-0.22 .. +5.23, seed 2); with two,
# -1.67 (-4.75 .. +1.41); with four, +1.31 (-3.07 .. +5.70), both seed 1. With three players,
# -8 scored -4.71 (-7.06 .. -2.36) against 0 (seed 1), and 16 -0.39 (-2.52 .. +1.74) against 8
# (seed 3); with two, -8 scored -4.58 (-8.41 .. -0.75) against 0 (seed 1).
TAKE_LOOSENESS: Mapping[int, int] = {2: 0, 3: 8, 4: 0}


@dataclass(frozen=True, slots=True)
class AuctionPolicy:
    """The strong auction's thresholds: the defaults are the ones the site plays.

    ``python -m games.ai.tune_auction`` measures other values against these in duplicate deals.
    """

    #: Close when the opponents make their contract at most this often by the model's estimate.
    close_chance: float = 0.3
    #: Re-close when our contract is made at least this often, the closer's strength allowed for.
    reclose_chance: float = 0.8
    #: What a closer's hand is expected to take off our points: it closed because it is strong.
    closer_strength: float = 20
    #: Added to the estimate before it is rounded down to a bid: above 0 bids bolder. A failed
    #: contract gives the defenders the bid and every point, so bidding below the estimate pays:
    #: in duplicate deals against 0, -20 scored +3.6 sheet points per deal with the medium
    #: heuristic's cards (2,000 deals) and +3.0 with the strong bot's (250 deals).
    bid_offset: float = -20
    #: How far above the partner's bid its estimate is taken to be, reading the auction. The
    #: strong bot bids some 25 under its estimate (the offset and the rounding down): in
    #: duplicate deals against 5, 25 scored +0.19 and +0.23 sheet points per deal (2,000 deals
    #: each, two seeds, medium cards), on the few deals where a partner's suit is outbid.
    partner_slack: float = 25
    #: How far above the opponents' bid their estimate is taken to be, deciding to close. Values
    #: from 15 to 45 were not measurably better than 5 in 2,000 duplicate deals; under 5, worse.
    opponent_slack: float = 5


DEFAULT_POLICY = AuctionPolicy()


def strong_taking(players: int) -> Knobs:
    """Return the heuristic knobs the strong bot takes with in the classic game of ``players``."""
    return replace(MEDIUM, take_looseness=MEDIUM.take_looseness + TAKE_LOOSENESS[players])


def choose_strong(
    observation: Observation,
    rng: random.Random,
    budget: float | None,
    policy: AuctionPolicy = DEFAULT_POLICY,
) -> Action:
    """Return the strong bot's action for the seat to act, bidding by ``policy``."""
    classic = observation.ruleset.is_classic
    if classic and observation.contract is None:
        return choose_heuristic(observation, rng, strong_taking(observation.players))
    forced = obligatory_action(observation)
    if forced is not None:
        return forced
    if observation.contract is None:
        return auction_action(observation, policy)
    plays = [a for a in observation.legal_actions if isinstance(a, Play)]
    if len(plays) == 1:
        return with_pilotta_call(observation, plays[0])
    card = search_card(observation, rng, DEFAULT_BUDGET if budget is None else budget)
    return with_pilotta_call(observation, PLAYS[card])


# --- the cards --------------------------------------------------------------------------------


def search_card(
    observation: Observation,
    rng: random.Random,
    budget: float,
    knowledge: Knowledge | None = None,
) -> int:
    """Return the card with the best sheet margin over deals sampled within ``budget``.

    The deals are drawn consistent with what the seat saw, and as likely as what the readings
    switched on make them: the opponents' cards so far (``PLAY_READING``), the other seats'
    silences (``SILENCE_READING``), their bids and opening passes (``AUCTION_READING``). Each
    is solved exactly and each card's card points are scored as the sheet would score them: a
    contract made or failed, closed or not, capot, declarations and pilotta. Card points break
    ties between cards of equal margin: against play that is not perfect, the points a card
    keeps within reach still matter. The deadline stops the search in the middle of a sample if
    need be; the samples solved by then decide, and the rules of thumb do when none was.
    ``knowledge`` is what the seat deduced from ``observation``, read from it unless given.
    With ``POSTPONED_LEADS`` the best leads are re-ranked with the next lead postponed a trick
    (``postponed``) in the second part of the budget.
    """
    start = time.perf_counter()
    deadline = start + budget
    k = read_knowledge(observation) if knowledge is None else knowledge
    postpone = postpones_lead(k)
    sampling_deadline = start + budget * POSTPONED_SAMPLING if postpone else deadline
    solver = shared_solver()
    reading = deal_reading(k, observation)
    totals: dict[int, tuple[float, float]] = {}
    worlds: list[tuple[PlayPosition, dict[int, int], Margin]] = []
    samples = 0
    while samples < MAX_SAMPLES and time.perf_counter() < sampling_deadline:
        hands = sample_by_auction(k, observation, reading, rng, deadline)
        pos = sampled_position(k, hands)
        try:
            values = solver.move_values(pos, deadline)
        except SearchTimeout:
            break
        scorer = sample_scorer(k, observation, hands, remaining_points(pos))
        margins = {value: scorer.margin(value) for value in set(values.values())}
        worlds.append((pos, values, scorer.margin))
        for card, value in values.items():
            margin, points = totals.get(card, (0.0, 0.0))
            totals[card] = (margin + margins[value], points + value)
        samples += 1
    if not totals:
        return fallback_card(k, observation)
    best = max(totals, key=lambda card: totals[card])
    if postpone and len(totals) > 1:
        ranked = sorted(totals, key=lambda card: totals[card], reverse=True)
        candidates = ranked[:POSTPONED_CANDIDATES]
        postponed = measure_leads(solver, worlds, candidates, deadline, POSTPONED_COARSE)
        chosen = postponed_choice(postponed, lambda card: totals[card][0])
        if POSTPONED_WATCH is not None:
            POSTPONED_WATCH(postponed, best, chosen)
        return best if chosen is None else chosen
    if DISCARD_SIGNALS:
        return signalled_card(k, totals, best, SIGNAL_SLACK * samples)
    return best


def postpones_lead(k: Knowledge) -> bool:
    """Say whether the seat's lead is chosen by reasoning postponed a trick.

    It is when ``POSTPONED_LEADS`` is on, the seat leads a trick of four players with a choice
    left for its next lead, and leads for the contract's side (or ``POSTPONED_DEFENCE``).
    """
    if not POSTPONED_LEADS or k.players != 4 or k.trick or k.leader != k.seat:
        return False
    if popcount(k.hand) < 3:
        return False
    return POSTPONED_DEFENCE or k.side(k.seat) == k.bidders


@dataclass(frozen=True, slots=True)
class BidderView:
    """What another seat's highest bid says about the hand it was dealt."""

    seat: int
    trump: int
    value: int
    leads: bool
    played: Mask  # the cards this seat has played, part of the hand it bid with

    def likelihood(self, hands: tuple[Mask, ...]) -> float:
        """Return the chance of this bid from the seat's hand in ``hands``, up to a factor.

        The bidder is taken to have bid at least ``BID_MARGIN`` under its estimate of the hand
        it was dealt, declarations counted as a bidder counts them before announcing.
        """
        dealt = hands[self.seat] | self.played
        worth = bidder_estimate(dealt, self.trump, self.leads) + declaration_points(dealt)
        chance = chance_at_least(worth, AUCTION_SPREAD, self.value + BID_MARGIN)
        if BID_CEILING is not None and self.value < MAX_BID:
            chance *= chance_at_least(self.value + BID_CEILING, AUCTION_SPREAD, worth)
        return chance


@dataclass(frozen=True, slots=True)
class PasserView:
    """What another seat's pass says about the hand it was dealt.

    The pass came before anyone bid, or over an opponent's bid of ``over`` points.
    """

    seat: int
    leads: bool
    played: Mask
    over: int | None = None

    def likelihood(self, hands: tuple[Mask, ...]) -> float:
        """Return the chance of this pass from the seat's hand in ``hands``, up to a factor.

        The passer is taken to hold at most ``MIN_BID + PASS_MARGIN`` in its best suit, or
        ``PASS_OVER_MARGIN`` over the bid it passed.
        """
        dealt = hands[self.seat] | self.played
        best = max(bidder_estimate(dealt, suit, self.leads) for suit in range(4))
        worth = best + declaration_points(dealt)
        bound: float = MIN_BID + PASS_MARGIN
        if self.over is not None:
            assert PASS_OVER_MARGIN is not None
            bound = self.over + PASS_OVER_MARGIN
        return chance_at_least(bound, AUCTION_SPREAD, worth)


class DealView(Protocol):
    """Something seen that a sampled deal makes more or less likely."""

    def likelihood(self, hands: tuple[Mask, ...]) -> float:
        """Return the chance of what was seen given ``hands``, up to a factor."""


AuctionReading = Sequence[BidderView | PasserView]
Reading = Sequence[DealView]


def deal_reading(k: Knowledge, observation: Observation) -> Reading:
    """Return what the readings switched on say: the auction, the opponents' cards, silences."""
    reading: list[DealView] = [*auction_reading(observation)]
    if PLAY_READING:
        partner_mismatch = PARTNER_MISMATCH if PARTNER_READING else None
        reading.extend(read_plays(k, observation, partner_mismatch=partner_mismatch))
    if SILENCE_READING:
        reading.extend(read_silences(observation))
    if DISCARD_SIGNALS:
        reading.extend(read_discards(k, observation))
    return reading


def auction_reading(observation: Observation) -> AuctionReading:
    """Return what the other seats' bids and opening passes say, when reading them is on.

    The classic game's taking is not read: only the palaristi auction bids from an estimate.
    """
    if observation.ruleset.is_classic:
        return []
    if not (AUCTION_READING or (DEFENCE_AUCTION_READING and defending(observation))):
        return []
    return [
        *auction_bidders(observation),
        *opening_passers(observation),
        *passers_over_bids(observation),
    ]


def defending(observation: Observation) -> bool:
    """Say whether the seat to act is on the side that did not take the contract."""
    contract = observation.contract
    seat = observation.seat
    return contract is not None and seat is not None and contract.team != seat % 2


def auction_bidders(observation: Observation) -> list[BidderView]:
    """Return the other seats' highest bids, the seat to act's own aside."""
    view = read_auction(observation)
    played = played_by_seat(observation)
    found = []
    for seat in range(4):
        bids = view.bids_by_seat[seat]
        if seat == observation.seat or not bids:
            continue
        top = max(bids, key=lambda bid: bid.value)
        if top.trump in view.suits_bid_by((seat + 2) % 4):
            continue  # a raise of its partner's suit may rest on the partner's hand
        leads = leads_first(observation, seat)
        found.append(BidderView(seat, int(top.trump), top.value, leads, played[seat]))
    return found


def opening_passers(observation: Observation) -> list[PasserView]:
    """Return the other seats whose first word in the auction was a pass, before any bid."""
    played = played_by_seat(observation)
    found = []
    for seat, action in observation.auction:
        if isinstance(action, Bid):
            break
        if seat != observation.seat:
            found.append(PasserView(seat, leads_first(observation, seat), played[seat]))
    return found


def passers_over_bids(observation: Observation) -> list[PasserView]:
    """Return the other seats' passes over an opponent's unclosed bid, when they are read.

    They are read with ``PASS_OVER_MARGIN`` set, reading the auction as a window. Only seats
    that never bid, with partners that never bid, are read: a bidder's own bid says more, and
    a seat whose partner bid may pass for its partner's sake.
    """
    if PASS_OVER_MARGIN is None:
        return []
    played = played_by_seat(observation)
    high: Bid | None = None
    bidder: int | None = None
    closed = False
    passed_over: dict[int, int] = {}
    bidders: set[int] = set()
    for seat, action in observation.auction:
        if isinstance(action, Bid):
            high, bidder, closed = action, seat, False
            bidders.add(seat)
        elif not isinstance(action, Pass):
            closed = True
        elif (
            high is not None
            and bidder is not None
            and not closed
            and seat != observation.seat
            and bidder % 2 != seat % 2
        ):
            passed_over.setdefault(seat, high.value)  # bids only rise: the first is the lowest
    return [
        PasserView(seat, leads_first(observation, seat), played[seat], over)
        for seat, over in passed_over.items()
        if (seat + 2) % 4 not in bidders and seat not in bidders
    ]


def auction_weight(reading: Reading, hands: tuple[Mask, ...]) -> float:
    """Return how likely a sampled deal makes what was seen, up to a constant factor."""
    weight = 1.0
    for view in reading:
        weight *= view.likelihood(hands)
    return weight


def sample_by_auction(
    k: Knowledge,
    observation: Observation,
    reading: Reading,
    rng: random.Random,
    deadline: float,
) -> tuple[Mask, ...]:
    """Return a deal consistent with what the seat saw, drawn as likely as the reading makes it.

    A drawn deal is kept with its weight, so every deal solved counts fully: weighing the solved
    deals instead would spend a whole search on deals that count for little. A reading that no
    draw fits (a bid far above what a hand could justify, as people sometimes make) gives up
    after ``AUCTION_DRAWS`` draws and keeps the likeliest.
    """
    hands = sample_consistent(k, observation, rng, deadline)
    if not reading:
        return hands
    best, best_weight = hands, -1.0
    for _ in range(AUCTION_DRAWS):
        weight = auction_weight(reading, hands)
        if rng.random() < weight or time.perf_counter() > deadline:
            return hands
        if weight > best_weight:
            best, best_weight = hands, weight
        hands = sample_consistent(k, observation, rng, deadline)
    return best


def sampled_position(k: Knowledge, hands: tuple[Mask, ...]) -> PlayPosition:
    """Return the solver's position for a sampled deal (four seats, two or three).

    With three seats the solver plays for seat 0 against the other two, so the seats are turned
    until the seat to act is seat 0.
    """
    leader = k.leader
    if k.players == 3:
        hands = tuple(hands[(k.seat + offset) % 3] for offset in range(3))
        leader = (k.leader - k.seat) % 3
    four = (*hands, 0, 0, 0)
    return PlayPosition(
        (four[0], four[1], four[2], four[3]),
        k.trick,
        leader,
        k.trump,
        protection=k.protection,
        players=k.players,
    )


def fallback_card(k: Knowledge, observation: Observation) -> int:
    """Return the rules of thumb's card, for when no sample could be solved in time."""
    legal = mask_of(a.card.index for a in observation.legal_actions if isinstance(a, Play))
    return play_card(k, legal)


# --- the auction ------------------------------------------------------------------------------


def leads_first(observation: Observation, seat: int) -> bool:
    """Say whether ``seat``'s team leads the first trick."""
    return seat % 2 == (observation.dealer + 1) % 2


def auction_action(observation: Observation, policy: AuctionPolicy = DEFAULT_POLICY) -> Action:
    """Bid from the model's estimate; close and re-close from its chance of the contract."""
    seat = observation.seat
    assert seat is not None
    hand = mask_of(card.index for card in observation.hand)
    view = read_auction(observation)
    legal = observation.legal_actions
    leads = leads_first(observation, seat)
    if view.high is not None and view.bidder is not None:
        ours = view.bidder % 2 == seat % 2
        if ours and RECLOSE in legal:
            chance = our_chance(hand, view, seat, leads, policy)
            return RECLOSE if chance >= policy.reclose_chance else PASS
        if (
            not ours
            and CLOSE in legal
            and their_chance(hand, view, leads, policy.opponent_slack) <= policy.close_chance
        ):
            return CLOSE
        if ours or view.multiplier > 1:
            return PASS
    return bid_or_pass(hand, view, seat, leads, policy)


def contract_estimate(
    hand: Mask, view: AuctionView, seat: int, suit: int, leads: bool, partner_slack: float
) -> float:
    """Return the points, declarations included, our team expects with ``suit`` as trumps.

    The partner's highest bid in the suit plus ``partner_slack`` stands for the partner's own
    estimate; what this hand adds to it is the partner model's shift.
    """
    estimate = bidder_estimate(hand, suit, leads)
    bidderss = [b.value for b in view.bids_by_seat[(seat + 2) % 4] if b.trump == suit]
    if bidderss:
        supported = max(bidderss) + partner_slack + partner_shift(hand, suit, leads)
        estimate = max(estimate, supported)
    return estimate + declaration_points(hand)


def bid_or_pass(
    hand: Mask, view: AuctionView, seat: int, leads: bool, policy: AuctionPolicy
) -> Action:
    """Bid the best suit's estimate plus the bid offset, rounded down; pass under the floor."""
    estimate, suit = max(
        (contract_estimate(hand, view, seat, s, leads, policy.partner_slack), s) for s in range(4)
    )
    value = min(MAX_BID, int(estimate + policy.bid_offset) // 10 * 10)
    floor = MIN_BID if view.high is None else view.high.value + 10
    if value < floor:
        return PASS
    return BIDS[(value - MIN_BID) // 10 * 4 + suit]


def their_chance(hand: Mask, view: AuctionView, leads: bool, opponent_slack: float) -> float:
    """Return the chance the opponents make their high bid, our hand considered."""
    assert view.high is not None
    model = bidding_model()
    trump = int(view.high.trump)
    # Their estimate is about their bid; our hand, as a defender's, moves it.
    mean = view.high.value + opponent_slack + defence_shift(hand, trump, leads)
    return chance_at_least(mean, model.defence_sd, view.high.value)


def our_chance(
    hand: Mask, view: AuctionView, seat: int, leads: bool, policy: AuctionPolicy
) -> float:
    """Return the chance our closed contract is made, the closer's strength considered."""
    assert view.high is not None
    assert view.bidder is not None
    model = bidding_model()
    trump = int(view.high.trump)
    value = view.high.value
    if view.bidder == seat:
        mean = contract_estimate(hand, view, seat, trump, leads, policy.partner_slack)
        spread = model.bidder_sd
    else:
        mean = value + policy.partner_slack + partner_shift(hand, trump, leads)
        spread = model.partner_sd
    return chance_at_least(mean - policy.closer_strength, spread, value)
