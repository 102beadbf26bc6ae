"""Reading silences: no announcement in trick 1, a pilotta card played without a call."""

from __future__ import annotations

import pytest

from games.ai import strong
from games.ai.silence import FORGOTTEN, read_silences
from games.engine import Bid, Pass, Play, RoundState, Suit, parse_cards
from games.engine.cards import cards_mask, mask_cards
from games.engine.declarations import find_declarations
from games.engine.fast import Mask

from .test_bots_strong import play_decisions
from .test_play_reading import medium_classic_plays, plain_and_read_draws, real_hands

QUEEN_OF_HEARTS = cards_mask(parse_cards("QH"))
NINE_OF_DIAMONDS = cards_mask(parse_cards("9D"))
JACK_OF_DIAMONDS = cards_mask(parse_cards("JD"))


#: No hand holds a declaration; seat 1 holds the King of hearts without the Queen (seat 3 has it).
DEALT = (
    "7C 7D 8D 7S 8S KS 7H 8H",
    "AC 9D QD KD QS 9S TH KH",
    "8C QC TC KC TD TS AS JS",
    "9C JD AD JC 9H JH QH AH",
)


def hearts_for_eighty(dealt: tuple[str, ...] = DEALT) -> RoundState:
    """Return the round of ``dealt`` at its first card: seat 0 took 80 in hearts, seat 0 leads."""
    state = RoundState.new(dealer=3, hands=tuple(tuple(parse_cards(hand)) for hand in dealt))
    state = state.apply(0, Bid(80, Suit.HEARTS))
    for _ in range(3):
        state = state.apply(state.to_act or 0, Pass())
    return state


def king_led_without_a_call() -> RoundState:
    """Return the round in trick 2: nobody announced in trick 1, then seat 1 led the King of
    hearts, with no call since it does not hold the Queen."""
    state = hearts_for_eighty()
    for seat, card in enumerate(parse_cards("7C AC 8C JC")):
        state = state.apply(seat, Play(card))
    return state.apply(1, Play(parse_cards("KH")[0]))


def swapped(
    hands: tuple[Mask, ...], a: int, card_a: Mask, b: int, card_b: Mask
) -> tuple[Mask, ...]:
    """Return ``hands`` with seat ``a``'s ``card_a`` and seat ``b``'s ``card_b`` exchanged."""
    moved = list(hands)
    moved[a] = hands[a] & ~card_a | card_b
    moved[b] = hands[b] & ~card_b | card_a
    return tuple(moved)


def test_every_computer_speaks_up_so_the_real_deal_keeps_its_whole_weight() -> None:
    # The medium and strong bots announce and call whenever the rules offer it: the deal really
    # dealt must never be discounted, or the reading would steer the samples from the truth.
    readings = 0
    for state, seat in play_decisions(4, 12):
        for silent in read_silences(state.observation(seat)):
            readings += 1
            assert silent.likelihood(real_hands(state)) == 1.0
    assert readings > 300


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_real_classic_deal_keeps_its_whole_weight(players: int) -> None:
    readings = 0
    for state, observation in medium_classic_plays(players):
        for silent in read_silences(observation):
            readings += 1
            assert silent.likelihood(real_hands(state)) == 1.0
    assert readings > 20


def test_a_seat_that_played_trick_one_without_announcing_is_read_as_holding_no_declaration() -> (
    None
):
    state = king_led_without_a_call()
    by_seat = {silent.seat: silent for silent in read_silences(state.observation(0))}
    hands = real_hands(state)
    # Seat 1 with the Jack of diamonds beside its King and Queen would have held a tierce.
    with_a_tierce = swapped(hands, 1, NINE_OF_DIAMONDS, 3, JACK_OF_DIAMONDS)
    dealt = mask_cards(with_a_tierce[1] | cards_mask(parse_cards("AC KH")))
    assert find_declarations(dealt)
    assert by_seat[1].no_declaration
    assert by_seat[1].likelihood(hands) == 1.0
    assert by_seat[1].likelihood(with_a_tierce) == FORGOTTEN


def test_a_pilotta_card_played_without_a_call_is_read_as_the_other_one_missing() -> None:
    state = king_led_without_a_call()
    by_seat = {silent.seat: silent for silent in read_silences(state.observation(2))}
    hands = real_hands(state)
    assert by_seat[1].not_held == QUEEN_OF_HEARTS
    with_the_queen = swapped(hands, 1, NINE_OF_DIAMONDS, 3, QUEEN_OF_HEARTS)
    assert by_seat[1].likelihood(with_the_queen) == FORGOTTEN
    assert by_seat[3].not_held == 0


def test_a_seat_that_called_pilotta_is_not_read_for_the_other_card() -> None:
    # Seat 0 was dealt both the King and the Queen of hearts and calls on the first it plays.
    dealt = (
        "7C 7D 8D 7S 8S KS KH QH",
        "AC 9D QD KD QS 9S TH 7H",
        "8C QC TC KC TD TS AS JS",
        "9C JD AD JC 9H JH 8H AH",
    )
    state = hearts_for_eighty(dealt).apply(0, Play(parse_cards("QH")[0], pilotta=True))
    readings = {silent.seat: silent for silent in read_silences(state.observation(1))}
    assert readings[0].not_held == 0
    assert readings[0].likelihood(real_hands(state)) == 1.0


def test_only_seats_past_their_first_card_are_read_and_never_the_seat_itself() -> None:
    state = king_led_without_a_call()
    for seat in range(4):
        read = {silent.seat for silent in read_silences(state.observation(seat))}
        assert read == {0, 1, 2, 3} - {seat}
    opening = hearts_for_eighty().apply(0, Play(parse_cards("7C")[0]))
    # Only seat 0 has played: seats 2 and 3 may still announce.
    assert {silent.seat for silent in read_silences(opening.observation(1))} == {0}


def test_the_draws_follow_the_silences(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strong, "SILENCE_READING", True)
    monkeypatch.setattr(strong, "PLAY_READING", False)
    observation = king_led_without_a_call().observation(0)
    plain, drawn = plain_and_read_draws(observation, draws=300, seed=5)
    reading = read_silences(observation)

    def loud(hands: tuple[Mask, ...]) -> float:
        """Return the share of seats 1 to 3 given a declaration or seat 1 the Queen of hearts."""
        return sum(weight < 1.0 for weight in (s.likelihood(hands) for s in reading)) / 3

    plain_share = sum(loud(hands) for hands in plain) / len(plain)
    drawn_share = sum(loud(hands) for hands in drawn) / len(drawn)
    assert plain_share > 0.15
    assert drawn_share < plain_share / 3
