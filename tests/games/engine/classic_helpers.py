"""Build classic rounds from the hands each seat holds once the deal is complete."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.engine import (
    Card,
    MatchState,
    Name,
    Pass,
    RoundState,
    Ruleset,
    Suit,
    Take,
    deal_classic,
    draw_cut,
    parse_cards,
    shuffled_deck,
)

from .helpers import random_action

PLAYER_COUNTS = (2, 3, 4)


def classic_deal(
    *, dealer: int, hands: Sequence[str], taker: int, unused: str = ""
) -> dict[str, Any]:
    """Return ``RoundState.new``'s arguments for a deal that completes to ``hands``.

    Each hand is the eight cards its seat holds after the completion, in the order received:
    five dealt before the auction, then its batch from the stock. The taker's sixth card is
    the turned card. ``unused`` is the two-player game's eight cards that stay face down.
    """
    players = len(hands)
    cards = [parse_cards(hand) for hand in hands]
    assert all(len(hand) == 8 for hand in cards), "each completed hand is eight cards"
    stock: list[Card] = []
    for offset in range(1, players + 1):
        seat = (dealer + offset) % players
        stock.extend(cards[seat][6:] if seat == taker else cards[seat][5:])
    stock.extend(parse_cards(unused))
    return {
        "dealer": dealer,
        "hands": [hand[:5] for hand in cards],
        "ruleset": Ruleset.classic(players),
        "turned": cards[taker][5],
        "stock": tuple(stock),
    }


def new_classic(*, dealer: int, hands: Sequence[str], taker: int, unused: str = "") -> RoundState:
    """Deal a classic round that completes to ``hands`` if ``taker`` takes or names."""
    return RoundState.new(**classic_deal(dealer=dealer, hands=hands, taker=taker, unused=unused))


def take(state: RoundState, taker: int, *, name: str | None = None) -> RoundState:
    """Pass round to ``taker``, who takes; with ``name``, pass round 1 and then name that suit."""
    if name is not None:
        for _ in range(state.players):
            state = state.apply(state.to_act, Pass())  # type: ignore[arg-type]
    while state.to_act != taker:
        state = state.apply(state.to_act, Pass())  # type: ignore[arg-type]
    return state.apply(taker, Take() if name is None else Name(Suit.parse(name)))


def classic_round(
    *,
    dealer: int,
    hands: Sequence[str],
    taker: int,
    name: str | None = None,
    unused: str = "",
) -> RoundState:
    """Deal, let ``taker`` take the turned card (or name ``name`` in round 2): play begins."""
    state = new_classic(dealer=dealer, hands=hands, taker=taker, unused=unused)
    return take(state, taker, name=name)


def random_classic_deal(rng: random.Random, players: int, dealer: int) -> RoundState:
    """Shuffle, cut and deal a classic round for ``players`` players."""
    ruleset = Ruleset.classic(players)
    deck = shuffled_deck(rng, ruleset.deck)
    dealt = deal_classic(deck, dealer=dealer, cut=draw_cut(rng, len(deck)), players=players)
    return RoundState.new(
        dealer=dealer, hands=dealt.hands, ruleset=ruleset, turned=dealt.turned, stock=dealt.stock
    )


def random_classic_round(
    seed: int | random.Random, players: int, *, dealer: int | None = None
) -> RoundState:
    """Play a whole classic round of random legal actions, pilotta calls included."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    dealer = rng.randrange(players) if dealer is None else dealer
    state = random_classic_deal(rng, players, dealer)
    while (seat := state.to_act) is not None:
        state = state.apply(seat, random_action(state, rng))
    return state


def random_classic_match(seed: int, players: int) -> MatchState:
    """Play random classic rounds until the match is decided."""
    rng = random.Random(seed)
    match = MatchState.new(ruleset=Ruleset.classic(players), first_dealer=rng.randrange(players))
    while match.winner is None:
        state = random_classic_deal(rng, players, match.next_dealer)
        while (seat := state.to_act) is not None:
            state = state.apply(seat, random_action(state, rng))
        match = match.with_round(state)
    return match
