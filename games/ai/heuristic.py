"""The heuristic bot: a hand evaluator for the auction and rules of thumb for the cards.

The palaristi game bids from ``hand_estimate``; the classic game takes, names or passes in
``taking``. The card play reads the table from the knowledge: two, three or four seats, sides
that are teams only with four, and partner protection (a winning partner is not trumped when
the rules leave the choice).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from games.engine.actions import BIDS, CLOSE, MAX_BID, MIN_BID, PASS, PLAYS, RECLOSE, Action, Play
from games.engine.assist import obligatory_action, with_pilotta_call
from games.engine.fast import (
    BEATEN_BY,
    POINTS,
    STRENGTH,
    SUIT_MASKS,
    Mask,
    cards_of,
    mask_of,
    winning_card,
)
from games.engine.observation import Observation

from .auction_view import AuctionView, read_auction
from .hand_value import declaration_points, side_suit_worth
from .knowledge import Knowledge, read_knowledge
from .taking import taking_action

# Ranks 7 8 9 T J Q K A: what a card adds to its holder's expected card points.
TRUMP_WORTH = (3, 3, 15, 7, 20, 4, 4, 9)
DEFENCE_TRUMP_WORTH = (2, 2, 12, 5, 20, 2, 2, 6)
PARTNER_SHARE = 30  # expected points of an unknown partner hand
DEFENCE_BASE = 10

Estimator = Callable[[Mask, int], int]


@dataclass(frozen=True, slots=True)
class Knobs:
    """The strength knobs of a heuristic level."""

    bid_margin: int  # points kept in hand before bidding an estimate
    close_margin: int  # how sure the defence must be before closing
    reclose_margin: int
    noise: float  # chance of a random legal card instead of the considered one
    take_looseness: int = 0  # classic game: how much weaker a hand it takes with


MEDIUM = Knobs(bid_margin=0, close_margin=25, reclose_margin=15, noise=0.0)
EASY = Knobs(bid_margin=10, close_margin=10, reclose_margin=15, noise=0.3, take_looseness=10)


def choose_heuristic(observation: Observation, rng: random.Random, knobs: Knobs) -> Action:
    """Return the heuristic's action for the seat to act."""
    forced = obligatory_action(observation)
    if forced is not None:
        return forced
    if observation.contract is None:
        if observation.turned is not None:
            return taking_action(observation, knobs.take_looseness)
        return auction_action(observation, knobs)
    plays = [a for a in observation.legal_actions if isinstance(a, Play)]
    if knobs.noise and rng.random() < knobs.noise:
        return with_pilotta_call(observation, rng.choice(plays))
    card = play_card(read_knowledge(observation), mask_of(a.card.index for a in plays))
    return with_pilotta_call(observation, PLAYS[card])


# --- the auction ------------------------------------------------------------------------------


def hand_estimate(hand: Mask, trump: int) -> int:
    """Estimate the card points the team takes with ``trump`` as trumps, own declarations aside."""
    trumps = cards_of(hand & SUIT_MASKS[trump])
    estimate = PARTNER_SHARE + sum(TRUMP_WORTH[card & 7] for card in trumps)
    estimate += 6 * max(0, len(trumps) - 3)
    for suit in range(4):
        if suit != trump:
            estimate += side_suit_worth(hand >> (8 * suit) & 0xFF)
    return estimate


def defence_estimate(hand: Mask, trump: int) -> int:
    """Estimate the card points the defence takes against ``trump``."""
    trumps = cards_of(hand & SUIT_MASKS[trump])
    estimate = PARTNER_SHARE + DEFENCE_BASE + sum(DEFENCE_TRUMP_WORTH[c & 7] for c in trumps)
    estimate += 4 * max(0, len(trumps) - 1)
    for suit in range(4):
        if suit != trump:
            estimate += side_suit_worth(hand >> (8 * suit) & 0xFF)
    return estimate


def best_contract(
    hand: Mask, view: AuctionView, seat: int, estimator: Estimator
) -> tuple[int, int]:
    """Return (estimate with declarations, suit) of the best trump suit for ``hand``."""
    partner_suits = view.suits_bid_by((seat + 2) % 4)
    declared = declaration_points(hand)
    options = []
    for suit in range(4):
        support = 15 if suit in partner_suits else 0
        options.append((estimator(hand, suit) + declared + support, suit))
    return max(options)


def auction_action(
    observation: Observation, knobs: Knobs, estimator: Estimator = hand_estimate
) -> Action:
    """Bid, pass, close or re-close from the hand's estimate and the auction so far."""
    seat = observation.seat
    assert seat is not None
    hand = mask_of(card.index for card in observation.hand)
    view = read_auction(observation)
    legal = observation.legal_actions
    if view.high is not None and view.bidder is not None:
        ours = view.bidder % 2 == seat % 2
        trump = int(view.high.trump)
        if ours and RECLOSE in legal:
            estimate = estimator(hand, trump) + declaration_points(hand) + 15
            if estimate >= view.high.value + knobs.reclose_margin:
                return RECLOSE
            return PASS
        defence = defence_estimate(hand, trump)
        if not ours and CLOSE in legal and defence >= 162 - view.high.value + knobs.close_margin:
            return CLOSE
        if ours or view.multiplier > 1:
            return PASS
    return bid_or_pass(hand, view, seat, knobs, estimator)


def bid_or_pass(
    hand: Mask, view: AuctionView, seat: int, knobs: Knobs, estimator: Estimator
) -> Action:
    """Bid the estimate less the margin if it beats the high bid, else pass."""
    estimate, suit = best_contract(hand, view, seat, estimator)
    value = min(MAX_BID, (estimate - knobs.bid_margin) // 10 * 10)
    floor = MIN_BID if view.high is None else view.high.value + 10
    if value < floor:
        return PASS
    return BIDS[(value - MIN_BID) // 10 * 4 + suit]


# --- the cards --------------------------------------------------------------------------------


def beats(card: int, best: int, trump: int) -> bool:
    """Say whether ``card`` takes the trick from the winning card ``best``."""
    return bool(BEATEN_BY[trump][best] >> card & 1)


def higher_unseen(card: int, k: Knowledge) -> Mask:
    """Return the unseen cards of the same suit that rank above ``card``."""
    return BEATEN_BY[k.trump][card] & SUIT_MASKS[card >> 3] & k.unseen


def opponents(k: Knowledge) -> tuple[int, ...]:
    """Return the seats of the other sides (the other team with four players)."""
    return k.opponents


def may_hold(seat: int, cards: Mask, k: Knowledge) -> Mask:
    """Return the cards of ``cards`` that ``seat`` may still hold."""
    return cards & k.unseen & ~k.forbidden[seat]


def discard_cost(card: int, k: Knowledge) -> int:
    """Return how much playing ``card`` on a trick we do not take gives away."""
    trump = k.trump
    cost = POINTS[trump][card] * 2
    if card >> 3 == trump:
        cost += 20 + STRENGTH[trump][card]
    elif not higher_unseen(card, k):
        cost += 15  # a master card will take a trick later
    suit_cards = k.hand & SUIT_MASKS[card >> 3]
    if suit_cards.bit_count() == 2 and card & 7 != 3 and suit_cards >> ((card & ~7) + 3) & 1:
        cost += 8  # the guard of a ten
    return cost


def play_card(k: Knowledge, legal: Mask) -> int:
    """Return the card the rules of thumb pick from ``legal``."""
    if not k.trick:
        return lead_card(k, legal)
    return follow_card(k, legal)


def lead_card(k: Knowledge, legal: Mask) -> int:
    """Lead: draw trumps as bidder, cash masters, else lead low from a safe suit."""
    trump = k.trump
    trumps_mask = SUIT_MASKS[trump]
    my_trumps = legal & trumps_mask
    foe_trumps = 0
    for foe in opponents(k):
        foe_trumps |= may_hold(foe, trumps_mask, k)
    if k.side(k.seat) == k.bidders and my_trumps and foe_trumps:
        top = max(cards_of(my_trumps), key=lambda c: STRENGTH[trump][c])
        if not higher_unseen(top, k):
            return top
        if my_trumps.bit_count() >= 3:
            return min(cards_of(my_trumps), key=lambda c: STRENGTH[trump][c])
    masters = [
        c
        for c in cards_of(legal & ~trumps_mask)
        if not higher_unseen(c, k) and not foe_may_ruff(c >> 3, k)
    ]
    if masters:
        return max(masters, key=lambda c: POINTS[trump][c])
    side = cards_of(legal & ~trumps_mask)
    if side:
        return min(side, key=lambda c: lead_cost(c, k))
    return min(cards_of(legal), key=lambda c: STRENGTH[trump][c])


def foe_may_ruff(suit: int, k: Knowledge) -> bool:
    """Say whether an opponent may be void in ``suit`` yet hold a trump."""
    trumps = SUIT_MASKS[k.trump]
    for foe in opponents(k):
        void = not may_hold(foe, SUIT_MASKS[suit], k)
        if void and may_hold(foe, trumps, k) and k.counts[foe]:
            return True
    return False


def lead_cost(card: int, k: Knowledge) -> int:
    """Return how bad leading a non-master side card is; partner ruffing makes it good."""
    cost = discard_cost(card, k)
    partner = k.partner
    if (
        partner is not None
        and not may_hold(partner, SUIT_MASKS[card >> 3], k)
        and may_hold(partner, SUIT_MASKS[k.trump], k)
    ):
        cost -= 15
    if foe_may_ruff(card >> 3, k):
        cost += 10
    return cost


def follow_card(k: Knowledge, legal: Mask) -> int:
    """Follow: feed a partner who keeps the trick, win cheaply when worth it, else play low."""
    trump = k.trump
    best = winning_card(k.trick, trump)
    winner = k.seat_at(k.trick.index(best))
    partner_wins = k.side(winner) == k.side(k.seat)
    if partner_wins and k.protection and legal & ~SUIT_MASKS[trump]:
        # Partner protection: no need to trump (or over-trump) a partner who holds the trick.
        legal &= ~SUIT_MASKS[trump]
    cards = cards_of(legal)
    if partner_wins and trick_is_safe(best, k):
        return max(cards, key=lambda c: feed_value(c, k))
    winning = [c for c in cards if beats(c, best, trump)]
    safe = [c for c in winning if trick_is_safe(c, k)]
    if safe:
        return min(safe, key=lambda c: (c >> 3 == trump, STRENGTH[trump][c]))
    trick_points = sum(POINTS[trump][c] for c in k.trick)
    if winning and trick_points >= 10 and len(k.trick) == k.players - 2:
        return min(winning, key=lambda c: STRENGTH[trump][c])
    return min(cards, key=lambda c: discard_cost(c, k))


def trick_is_safe(card: int, k: Knowledge) -> bool:
    """Say whether ``card``, played now, cannot be beaten by an opponent still to play."""
    still_to_play = k.players - 1 - len(k.trick)
    beaters = BEATEN_BY[k.trump][card]
    for offset in range(1, still_to_play + 1):
        seat = (k.seat + offset) % k.players
        if k.side(seat) != k.side(k.seat) and may_hold(seat, beaters, k):
            return False
    return True


def feed_value(card: int, k: Knowledge) -> int:
    """Return how good a card is to give a partner who takes the trick."""
    trump = k.trump
    if card >> 3 == trump:
        return -STRENGTH[trump][card] - 20
    value = POINTS[trump][card]
    if not higher_unseen(card, k) and value >= 10:
        value -= 6  # a master would take a trick of its own later
    return value
