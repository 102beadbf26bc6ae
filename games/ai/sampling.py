"""Determinization: deal the unseen cards to the other seats consistently with what was seen."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator

from games.engine.cards import mask_cards
from games.engine.declarations import find_declarations
from games.engine.fast import Mask, cards_of
from games.engine.observation import Observation

from .knowledge import Knowledge

ANNOUNCEMENT_TRIES = 200


def sample_hands(k: Knowledge, rng: random.Random) -> tuple[Mask, ...]:
    """Return every seat's hand: its own, and a random deal of the unseen cards to the others.

    Each other seat gets its known cards, then unseen cards it is not barred from, as many as it
    holds; the draw is checked card by card so that it can always be completed. With two players
    the unseen cards left over are the unused ones, dealt to no one.
    """
    players = k.players
    unused = players  # a holder for the cards no one was dealt
    others = [s for s in range(players) if s != k.seat]
    hands = [0] * (players + 1)
    hands[k.seat] = k.hand
    capacity = [0] * (players + 1)
    forbidden = [*k.forbidden, 0]
    pool = k.unseen
    for seat in others:
        hands[seat] = k.known[seat] & k.unseen
        pool &= ~hands[seat]
        capacity[seat] = k.counts[seat] - hands[seat].bit_count()
    capacity[unused] = pool.bit_count() - sum(capacity[seat] for seat in others)
    holders = [*others, unused] if capacity[unused] > 0 else others
    cards = cards_of(pool)
    rng.shuffle(cards)
    allowed = {card: _allowed_seats(card, forbidden, holders, capacity) for card in cards}
    # The most constrained cards first: they are the ones that can run out of room.
    cards.sort(key=lambda card: len(allowed[card]))
    buckets = _buckets(cards, allowed, holders)
    for card in cards:
        choices = allowed[card]
        pattern = _pattern(choices, holders)
        buckets[pattern] -= 1
        seat = _pick_seat(choices, capacity, buckets, holders, rng)
        hands[seat] |= 1 << card
        capacity[seat] -= 1
    return tuple(hands[:players])


def _allowed_seats(
    card: int, forbidden: list[Mask], others: list[int], capacity: list[int]
) -> list[int]:
    seats = [s for s in others if not forbidden[s] >> card & 1 and capacity[s] > 0]
    # Inferences cannot contradict each other in a real round; fall back to any seat if they do.
    return seats or [s for s in others if capacity[s] > 0]


def _pattern(seats: list[int], others: list[int]) -> int:
    return sum(1 << others.index(s) for s in seats)


def _buckets(cards: list[int], allowed: dict[int, list[int]], others: list[int]) -> list[int]:
    """Count the cards by the set of holders allowed to hold them (a bit pattern)."""
    buckets = [0] * (1 << len(others))
    for card in cards:
        buckets[_pattern(allowed[card], others)] += 1
    return buckets


def _feasible(capacity: list[int], buckets: list[int], others: list[int]) -> bool:
    """Say whether the cards left fit (Hall's condition over every set of holders)."""
    patterns = 1 << len(others)
    for subset in range(1, patterns):
        room = sum(capacity[others[i]] for i in range(len(others)) if subset >> i & 1)
        need = sum(buckets[p] for p in range(1, patterns) if p & ~subset == 0)
        if need > room:
            return False
    return True


def _pick_seat(
    choices: list[int],
    capacity: list[int],
    buckets: list[int],
    others: list[int],
    rng: random.Random,
) -> int:
    """Draw a seat for a card in proportion to room left, keeping the rest of the deal possible."""
    candidates = [s for s in choices if capacity[s] > 0]
    while candidates:
        weights = [capacity[s] for s in candidates]
        seat = rng.choices(candidates, weights)[0]
        capacity[seat] -= 1
        fits = _feasible(capacity, buckets, others)
        capacity[seat] += 1
        if fits:
            return seat
        candidates.remove(seat)
    return max(choices, key=lambda s: capacity[s])


def matches_announcements(hands: tuple[Mask, ...], k: Knowledge, observation: Observation) -> bool:
    """Say whether seats that announced but have not shown hold what they announced."""
    played = played_by_seat(observation)
    for seat in range(observation.players):
        announced = observation.announcements[seat]
        if seat == k.seat or not announced or observation.shown[seat]:
            continue
        dealt = mask_cards(hands[seat] | played[seat])
        found = sorted((d.announcement for d in find_declarations(dealt)), reverse=True)
        if tuple(found) != announced:
            return False
    return True


def played_by_seat(observation: Observation) -> list[Mask]:
    """Return the cards each seat has played so far."""
    played = [0] * observation.players
    for seat, card, _, _ in plays_in_order(observation):
        played[seat] |= 1 << card
    return played


def plays_in_order(observation: Observation) -> Iterator[tuple[int, int, tuple[int, ...], Mask]]:
    """Yield each card played so far, in order: its seat, the card, the cards before it in its
    trick, and every card played before it."""
    players = observation.players
    tricks = [(t.leader, [c.index for c in t.cards]) for t in observation.tricks]
    if observation.current_trick is not None:
        trick = observation.current_trick
        tricks.append((trick.leader, [c.index for c in trick.cards]))
    played = 0
    for leader, cards in tricks:
        for position, card in enumerate(cards):
            yield (leader + position) % players, card, tuple(cards[:position]), played
            played |= 1 << card


def sample_consistent(
    k: Knowledge, observation: Observation, rng: random.Random, deadline: float = math.inf
) -> tuple[Mask, ...]:
    """Return a sample that also honours announced declarations, when one is found quickly.

    The search for such a sample gives up after ``ANNOUNCEMENT_TRIES`` draws or at ``deadline``
    (a ``time.perf_counter`` instant), whichever comes first.
    """
    hands = sample_hands(k, rng)
    for _ in range(ANNOUNCEMENT_TRIES):
        if matches_announcements(hands, k, observation) or time.perf_counter() > deadline:
            break
        hands = sample_hands(k, rng)
    return hands
