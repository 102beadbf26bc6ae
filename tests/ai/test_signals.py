"""Discard signals between partners: a discard denies the master of its suit."""

from __future__ import annotations

import random

import pytest

from games.ai import strong
from games.ai.knowledge import read_knowledge
from games.ai.signals import (
    SIGNAL_MISMATCH,
    PartnerDiscards,
    is_discard,
    keeps_signal,
    master,
    read_discards,
    signalled_card,
)
from games.ai.strong import deal_reading
from games.engine import Play, RoundState, Suit, parse_cards
from games.engine.cards import cards_mask
from games.engine.fast import parse_card
from games.engine.phase import Phase

from .test_bots import hearts_round, new_round, play_out

HEARTS = int(Suit.HEARTS)
CLUBS = int(Suit.CLUBS)


def card(name: str) -> int:
    return parse_card(name)


def diamond_led() -> RoundState:
    """Return a round in hearts where 7D and AD are on the table and seat 2, with neither
    diamonds nor hearts, is to play: it holds the ace of clubs and no spade master."""
    hands = (
        "7D 8D 9D TD 7H 8H 9H TH",
        "JD QD KD AD JH QH 9C TC",
        "AC 7C 8C 7S 8S 9S TS JS",
        "JC QC KC KH AH QS KS AS",
    )
    return hearts_round(hands, "7D AD")


def test_the_master_is_the_highest_card_of_the_suit_not_yet_played() -> None:
    assert master(CLUBS, 0, HEARTS) == card("AC")
    assert master(CLUBS, cards_mask(parse_cards("AC")), HEARTS) == card("TC")
    every_club = cards_mask(parse_cards("7C 8C 9C TC JC QC KC AC"))
    assert master(CLUBS, every_club, HEARTS) is None


def test_a_discard_is_neither_the_led_suit_nor_a_trump() -> None:
    led = (card("7D"),)
    assert is_discard(led, card("7C"), HEARTS)
    assert not is_discard(led, card("8D"), HEARTS)
    assert not is_discard(led, card("7H"), HEARTS)
    assert not is_discard((), card("7C"), HEARTS)  # a lead


def test_a_discard_from_the_suit_whose_master_the_seat_holds_breaks_the_convention() -> None:
    k = read_knowledge(diamond_led().observation(2))
    assert not keeps_signal(k, card("7C"))  # it holds the ace of clubs
    assert keeps_signal(k, card("7S"))  # the ace of spades is elsewhere


def test_the_convention_is_kept_only_within_the_slack() -> None:
    k = read_knowledge(diamond_led().observation(2))
    seven_of_clubs, seven_of_spades = card("7C"), card("7S")
    totals = {seven_of_clubs: (100.0, 50.0), seven_of_spades: (95.0, 60.0)}
    assert signalled_card(k, totals, seven_of_clubs, slack=5.0) == seven_of_spades
    assert signalled_card(k, totals, seven_of_clubs, slack=4.0) == seven_of_clubs
    # A best card that keeps the convention stays, whatever the slack.
    totals = {seven_of_clubs: (90.0, 50.0), seven_of_spades: (95.0, 60.0)}
    assert signalled_card(k, totals, seven_of_spades, slack=50.0) == seven_of_spades


def after_the_discard() -> RoundState:
    """Return ``diamond_led`` after seat 2 discarded the seven of clubs, holding the ace."""
    return diamond_led().apply(2, Play(parse_cards("7C")[0]))


def test_a_partners_discard_discounts_the_deals_giving_it_the_master() -> None:
    state = after_the_discard()
    observation = state.observation(0)
    (reading,) = read_discards(read_knowledge(observation), observation)
    assert reading == PartnerDiscards(2, cards_mask(parse_cards("AC")))
    hands = [cards_mask(state.hand(seat)) for seat in range(4)]
    assert reading.likelihood(tuple(hands)) == SIGNAL_MISMATCH  # it did hold the ace
    ace = cards_mask(parse_cards("AC"))
    ten = cards_mask(parse_cards("TC"))
    hands[2], hands[1] = hands[2] & ~ace | ten, hands[1] & ~ten | ace
    assert reading.likelihood(tuple(hands)) == 1.0


def test_only_the_partners_discards_are_read() -> None:
    state = after_the_discard()
    for seat in (1, 3):  # seat 2's opponents
        observation = state.observation(seat)
        assert read_discards(read_knowledge(observation), observation) == []


def test_the_site_neither_keeps_nor_reads_the_convention_unless_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    observation = after_the_discard().observation(0)
    k = read_knowledge(observation)
    assert not any(isinstance(view, PartnerDiscards) for view in deal_reading(k, observation))
    monkeypatch.setattr(strong, "DISCARD_SIGNALS", True)
    assert any(isinstance(view, PartnerDiscards) for view in deal_reading(k, observation))


def test_the_strong_bot_keeping_the_convention_plays_legal_rounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(strong, "DISCARD_SIGNALS", True)
    rng = random.Random(2)
    for _ in range(2):
        # A state refuses an illegal action.
        state = play_out(new_round(rng), "strong", rng)
        assert state.phase in (Phase.FINISHED, Phase.CANCELLED)
