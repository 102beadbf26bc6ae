"""Build rounds from explicit hands and short action strings."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from games.engine import (
    Action,
    Announce,
    Bid,
    Card,
    MatchState,
    Pass,
    Play,
    Rank,
    RoundState,
    Ruleset,
    Show,
    deal,
    draw_cut,
    parse_action,
    shuffled_deck,
)


def act(state: RoundState, *steps: str) -> RoundState:
    """Apply steps written ``"<seat> <action>"``, e.g. ``"0 bid 80 H"``."""
    for step in steps:
        seat, text = step.split(" ", 1)
        state = state.apply(int(seat), parse_action(text))
    return state


def play(state: RoundState, tokens: str) -> RoundState:
    """Apply, each by the seat to act: cards (``JH``), ``+KH`` (with pilotta), announce, show."""
    for token in tokens.split():
        seat = state.to_act
        assert seat is not None, f"nobody is to act before {token}"
        if token == "announce":
            state = state.apply(seat, Announce())
        elif token == "show":
            state = state.apply(seat, Show())
        elif token.startswith("+"):
            state = state.apply(seat, Play(Card.parse(token[1:]), pilotta=True))
        else:
            state = state.apply(seat, Play(Card.parse(token)))
    return state


def play_round(
    *,
    dealer: int,
    hands: Sequence[str],
    actions: Iterable[str] = (),
    cards: str = "",
    ruleset: Ruleset | None = None,
) -> RoundState:
    """Deal ``hands``, apply the seat-prefixed ``actions``, then the ``cards`` tokens."""
    state = RoundState.new(dealer=dealer, hands=hands, ruleset=ruleset or Ruleset())
    return play(act(state, *actions), cards)


def random_round(
    seed: int | random.Random,
    *,
    dealer: int | None = None,
    ruleset: Ruleset | None = None,
    modest: bool = False,
) -> RoundState:
    """Play a whole round of random legal actions, pilotta calls included.

    ``modest`` bidders mostly pass, bid at most 110 and never close, so that contracts
    are often made; otherwise every legal action is equally likely.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    dealer = rng.randrange(4) if dealer is None else dealer
    hands = deal(shuffled_deck(rng), dealer=dealer, cut=draw_cut(rng))
    state = RoundState.new(dealer=dealer, hands=hands, ruleset=ruleset or Ruleset())
    while (seat := state.to_act) is not None:
        if modest and state.phase == "auction":
            state = state.apply(seat, modest_bid(state, rng))
        else:
            state = state.apply(seat, random_action(state, rng))
    return state


def modest_bid(state: RoundState, rng: random.Random) -> Action:
    """Pass more often than not; otherwise bid a random value up to 110."""
    bids = [a for a in state.legal_actions() if isinstance(a, Bid) and a.value <= 110]
    if bids and rng.random() < 0.4:
        return rng.choice(bids)
    return Pass()


def random_match(seed: int, *, ruleset: Ruleset | None = None) -> MatchState:
    """Play random rounds until the match is decided."""
    rng = random.Random(seed)
    match = MatchState.new(ruleset=ruleset or Ruleset(), first_dealer=rng.randrange(4))
    while match.winner is None:
        round_state = random_round(rng, dealer=match.next_dealer, ruleset=match.ruleset)
        match = match.with_round(round_state)
    return match


def random_action(state: RoundState, rng: random.Random) -> Action:
    """Choose a legal action; a King or Queen of trumps carries a pilotta call when allowed."""
    action = rng.choice(state.legal_actions())
    if isinstance(action, Play) and rng.random() < 0.8:
        called = Play(action.card, pilotta=True)
        if state.why_illegal(state.to_act, called) is None:  # type: ignore[arg-type]
            return called
    return action


def play_out(state: RoundState) -> RoundState:
    """Finish a round by always playing the first legal card (no announce, no show)."""
    while state.to_act is not None:
        first = next(a for a in state.legal_actions() if isinstance(a, Play))
        state = state.apply(state.to_act, first)
    return state


def assert_declarations_and_pilotta_taken(state: RoundState) -> None:
    """Assert that every declaration was announced and shown, and every held pair called pilotta."""
    contract = state.contract
    assert contract is not None
    for seat in range(4):
        if state.declarations(seat):
            assert state.announced(seat)
            assert state.shown(seat) == state.declarations(seat)
        pair = {Card(contract.trump, Rank.KING), Card(contract.trump, Rank.QUEEN)}
        if pair <= set(state.hands[seat]):
            assert {card for _, card in state.pilotta_calls} == pair
