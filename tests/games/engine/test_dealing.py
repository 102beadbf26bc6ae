"""Shuffling, the cut, the 3-2-3 deal and the table deck."""

import random

import pytest

from games.engine import DECK, InvalidDealError, Phase, deal, draw_cut, shuffled_deck, table_deck

from .helpers import play_round, random_round


def test_a_seeded_shuffle_is_repeatable_and_a_permutation() -> None:
    first = shuffled_deck(random.Random(7))
    assert first == shuffled_deck(random.Random(7))
    assert sorted(first) == list(DECK)
    assert first != shuffled_deck(random.Random(8))


def test_the_cut_is_drawn_between_3_and_29() -> None:
    rng = random.Random(1)
    assert {draw_cut(rng) for _ in range(2000)} == set(range(3, 30))


def test_deal_cuts_then_deals_3_2_3_from_the_dealers_right() -> None:
    # Dealer 1: seats 2, 3, 0, 1 receive 3 cards each, then 2 each, then 3 each.
    hands = deal(DECK, dealer=1, cut=5)
    order = [c.index for c in DECK[5:] + DECK[:5]]
    packets = [order[0:3], order[3:6], order[6:9], order[9:12]]
    packets += [order[12:14], order[14:16], order[16:18], order[18:20]]
    packets += [order[20:23], order[23:26], order[26:29], order[29:32]]
    expected: dict[int, list[int]] = {0: [], 1: [], 2: [], 3: []}
    for number, packet in enumerate(packets):
        expected[(1 + 1 + number) % 4] += packet
    assert [[c.index for c in hand] for hand in hands] == [expected[s] for s in range(4)]
    assert all(len(hand) == 8 for hand in hands)


@pytest.mark.parametrize(("dealer", "cut"), [(4, 5), (-1, 5), (True, 5), (0, 2), (0, 30), (0, 0)])
def test_deal_refuses_a_bad_dealer_or_cut(dealer: int, cut: int) -> None:
    with pytest.raises(InvalidDealError):
        deal(DECK, dealer=dealer, cut=cut)


def test_deal_refuses_a_deck_that_is_not_the_32_cards() -> None:
    with pytest.raises(InvalidDealError):
        deal(DECK[:31], dealer=0, cut=5)
    with pytest.raises(InvalidDealError):
        deal((*DECK[:31], DECK[0]), dealer=0, cut=5)


def test_table_deck_stacks_the_tricks_in_play_order() -> None:
    state = random_round(3)
    assert state.phase is Phase.FINISHED
    deck = table_deck(state)
    assert deck == tuple(card for trick in state.tricks for card in trick.cards)
    assert sorted(deck) == list(DECK)


def test_table_deck_of_a_cancelled_round_stacks_the_hands_of_seats_0_to_3() -> None:
    hands = ["7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD"]
    hands += ["7H 8H 9H TH JH QH KH AH", "7S 8S 9S TS JS QS KS AS"]
    state = play_round(dealer=0, hands=hands, actions=["1 pass", "2 pass", "3 pass", "0 pass"])
    assert state.phase is Phase.CANCELLED
    assert table_deck(state) == DECK


def test_table_deck_needs_an_ended_round() -> None:
    hands = [" ".join(str(c) for c in DECK[8 * s : 8 * s + 8]) for s in range(4)]
    with pytest.raises(InvalidDealError):
        table_deck(play_round(dealer=0, hands=hands))
