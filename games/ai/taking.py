"""Taking in the classic game: take the turned suit, name another, or pass.

The taker will hold its five cards, the turned card and two cards from the stock. A hand is
judged by the points its side is expected to take with a given trump, averaged over every pair
of cards the stock may give it; it takes when that beats what it needs to out-score every
other side, with a margin for the chance of failing (a failed taker scores only its pilotta).
"""

from __future__ import annotations

from itertools import combinations

from games.engine.actions import NAMES, PASS, TAKE, Action, Name
from games.engine.cards import Suit
from games.engine.fast import SUIT_MASKS, Mask, cards_of, mask_of
from games.engine.observation import Observation

from .hand_value import declaration_points, side_suit_worth

# Ranks 7 8 9 T J Q K A: what a trump adds to its holder's expected card points.
TRUMP_WORTH = (3, 3, 15, 7, 20, 4, 4, 9)
# The points a side expects beyond its own cards: a partner's hand with four players.
BASE_SHARE = {4: 30, 3: 0, 2: 0}
# The estimate a taker needs at the medium level, by number of players: about where the mean
# margin of a forced taker (medium play all round) turns positive on random deals, then lowered
# where the arena showed that taking more often pays (passing hands the others the choice).
TAKE_AT = {4: 64, 3: 46, 2: 36}


def suit_worths(hand: Mask, trump: int) -> int:
    """Return the card points the cards of ``hand`` are expected to bring with ``trump``."""
    trumps = cards_of(hand & SUIT_MASKS[trump])
    worth = sum(TRUMP_WORTH[card & 7] for card in trumps) + 6 * max(0, len(trumps) - 3)
    for suit in range(4):
        if suit != trump:
            worth += side_suit_worth(hand >> (8 * suit) & 0xFF)
    return worth


def taking_estimate(held: Mask, unseen: Mask, trump: int, players: int) -> float:
    """Return the points the taker's side expects with ``trump``.

    ``held`` is what the taker will surely hold (its five cards and the turned card); the two
    cards still to come are averaged over every pair of ``unseen`` cards.
    """
    pool = cards_of(unseen)
    pairs = list(combinations(pool, 2))
    total = sum(suit_worths(held | 1 << a | 1 << b, trump) for a, b in pairs)
    return BASE_SHARE[players] + total / len(pairs) + declaration_points(held)


def taking_action(observation: Observation, looseness: int = 0) -> Action:
    """Return take, name a suit or pass for the seat to act in the classic game's auction.

    ``looseness`` lowers the estimate the hand needs: a looser player takes more often.
    """
    turned = observation.turned
    assert turned is not None, "taking is the classic game's auction"
    players = observation.players
    held = mask_of(card.index for card in observation.hand) | turned.mask
    deck = mask_of(card.index for card in observation.ruleset.deck)
    unseen = deck & ~held
    need = TAKE_AT[players] - looseness
    legal = observation.legal_actions
    if TAKE in legal:
        if taking_estimate(held, unseen, int(turned.suit), players) >= need:
            return TAKE
        return PASS
    options = [
        (taking_estimate(held, unseen, int(action.trump), players), int(action.trump))
        for action in legal
        if isinstance(action, Name)
    ]
    if not options:
        return PASS
    estimate, suit = max(options)
    return NAMES[Suit(suit)] if estimate >= need else PASS
