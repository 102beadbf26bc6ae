"""Reading the opponents' cards: the rules of thumb as a play model for the sampled deals."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest

from games.ai import choose_action, strong
from games.ai.arena import classic_round
from games.ai.knowledge import read_knowledge
from games.ai.play_reading import MISMATCH, SeatPlays, read_plays
from games.ai.sampling import sample_consistent
from games.ai.silence import SilentSeat
from games.ai.strong import BidderView, PasserView, deal_reading, sample_by_auction
from games.engine import RoundState, parse_cards
from games.engine.cards import cards_mask
from games.engine.fast import Mask
from games.engine.observation import Observation
from games.engine.phase import Phase

from .test_bots import hearts_round
from .test_bots_strong import play_decisions

TEN_OF_CLUBS = cards_mask(parse_cards("TC"))
JACK_OF_DIAMONDS = cards_mask(parse_cards("JD"))
#: The clubs worth more than the jack to a partner who holds the trick.
BETTER_FEEDS = cards_mask(parse_cards("TC KC QC"))


def real_hands(state: RoundState) -> tuple[Mask, ...]:
    return tuple(cards_mask(state.hand(seat)) for seat in range(state.ruleset.players))


def fed_the_jack() -> RoundState:
    """Return a round after one trick: 7C, AC, 8C, then JC from seat 3 onto its partner's ace.

    Seat 1 held no other club. Seat 3 held the jack and the nine of clubs and fed its partner
    the jack, as the rules of thumb do; the ten of clubs was with seat 2.
    """
    hands = (
        "7C 7D 8D 7S 8S KS 7H 8H",
        "AC 9D QD KD QS 9S TH KH",
        "8C QC TC KC TD TS AS JS",
        "9C JD AD JC 9H JH QH AH",
    )
    return hearts_round(hands, "7C AC 8C JC")


def test_the_real_deal_keeps_its_whole_weight_against_the_rules_of_thumb() -> None:
    # Between medium bots every card is the rules of thumb's: the deal really dealt must never be
    # discounted, or the reading would steer the samples away from the truth.
    readings = 0
    for state, seat in play_decisions(1, 12):
        observation = state.observation(seat)
        for seat_plays in read_plays(read_knowledge(observation), observation):
            readings += 1
            assert seat_plays.likelihood(real_hands(state)) == 1.0
    assert readings > 300


def medium_classic_plays(players: int, rounds: int = 4) -> Iterator[tuple[RoundState, Observation]]:
    """Yield every card-play decision of classic rounds between medium bots, as its seat sees it."""
    rng = random.Random(players)
    for seed in range(rounds):
        state = classic_round(seed, players)
        while state.to_act is not None:
            seat = state.to_act
            observation = state.observation(seat)
            if state.phase == Phase.PLAY:
                yield state, observation
            state = state.apply(seat, choose_action(observation, level="medium", rng=rng))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_real_classic_deal_keeps_its_whole_weight(players: int) -> None:
    readings = 0
    for state, observation in medium_classic_plays(players):
        for seat_plays in read_plays(read_knowledge(observation), observation):
            readings += 1
            assert seat_plays.likelihood(real_hands(state)) == 1.0
    assert readings > 20


def test_an_opponent_who_fed_a_small_card_is_read_as_not_holding_the_ten() -> None:
    state = fed_the_jack()
    observation = state.observation(0)
    by_seat = {plays.seat: plays for plays in read_plays(read_knowledge(observation), observation)}
    hands = real_hands(state)
    with_the_ten = list(hands)
    # Seat 3 holding the ten would have fed it to its partner's master ace instead of the jack.
    with_the_ten[3] = hands[3] & ~JACK_OF_DIAMONDS | TEN_OF_CLUBS
    with_the_ten[2] = hands[2] & ~TEN_OF_CLUBS | JACK_OF_DIAMONDS
    assert by_seat[3].likelihood(hands) == 1.0
    assert by_seat[3].likelihood(tuple(with_the_ten)) == MISMATCH


def test_only_the_opponents_cards_are_read() -> None:
    state = fed_the_jack()
    for seat in range(4):
        observation = state.observation(seat)
        read = {plays.seat for plays in read_plays(read_knowledge(observation), observation)}
        assert read == {(seat + 1) % 4, (seat + 3) % 4}


def test_the_partners_cards_are_read_when_asked_for_with_their_own_mismatch() -> None:
    state = fed_the_jack()
    observation = state.observation(1)  # seat 3, which fed the jack, is seat 1's partner
    read = read_plays(read_knowledge(observation), observation, partner_mismatch=0.5)
    by_seat = {plays.seat: plays for plays in read}
    assert set(by_seat) == {0, 2, 3}
    hands = real_hands(state)
    with_the_ten = list(hands)
    with_the_ten[3] = hands[3] & ~JACK_OF_DIAMONDS | TEN_OF_CLUBS
    with_the_ten[2] = hands[2] & ~TEN_OF_CLUBS | JACK_OF_DIAMONDS
    assert by_seat[3].likelihood(hands) == 1.0
    assert by_seat[3].likelihood(tuple(with_the_ten)) == 0.5


@pytest.mark.parametrize("players", [2, 3])
def test_without_partners_asking_for_the_partner_reads_no_one_more(players: int) -> None:
    for _, observation in medium_classic_plays(players, rounds=1):
        k = read_knowledge(observation)
        asked = {plays.seat for plays in read_plays(k, observation, partner_mismatch=0.5)}
        assert asked == {plays.seat for plays in read_plays(k, observation)}


def test_the_strong_bot_reads_its_partner_only_with_partner_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    observation = fed_the_jack().observation(1)
    k = read_knowledge(observation)
    seats = {view.seat for view in deal_reading(k, observation) if isinstance(view, SeatPlays)}
    assert seats == {0, 2}
    monkeypatch.setattr(strong, "PARTNER_READING", True)
    partner = [view for view in deal_reading(k, observation) if isinstance(view, SeatPlays)]
    assert {view.seat: view.mismatch for view in partner}[3] == strong.PARTNER_MISMATCH


def test_the_site_reads_the_opponents_cards_and_the_silences() -> None:
    # Measured better than plain sampling against the medium bot, paired on the same deals.
    observation = fed_the_jack().observation(0)
    reading = deal_reading(read_knowledge(observation), observation)
    assert {type(view) for view in reading} == {SeatPlays, SilentSeat}
    # The auction is not read: reasoned bounds measured no better than plain sampling.
    assert not any(isinstance(view, BidderView | PasserView) for view in reading)


def test_plain_sampling_reads_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    for setting in ("PLAY_READING", "SILENCE_READING", "AUCTION_READING"):
        monkeypatch.setattr(strong, setting, False)
    observation = fed_the_jack().observation(0)
    assert deal_reading(read_knowledge(observation), observation) == []


def plain_and_read_draws(
    observation: Observation, *, draws: int, seed: int
) -> tuple[list[tuple[Mask, ...]], list[tuple[Mask, ...]]]:
    """Return deals drawn for ``observation`` without, then with, the readings switched on."""
    k = read_knowledge(observation)
    reading = deal_reading(k, observation)
    assert reading
    rng = random.Random(seed)
    plain = [sample_consistent(k, observation, rng) for _ in range(draws)]
    drawn = [sample_by_auction(k, observation, reading, rng, math.inf) for _ in range(draws)]
    return plain, drawn


def test_the_draws_follow_what_the_opponents_played(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strong, "PLAY_READING", True)
    monkeypatch.setattr(strong, "SILENCE_READING", False)
    plain, drawn = plain_and_read_draws(fed_the_jack().observation(0), draws=400, seed=3)
    # Seat 3 fed the jack: it is read as holding no club its partner would rather have had.
    # Those clubs are then most likely with seat 2, as the rules of thumb play the ace second
    # only without a smaller club to give.
    plain_share = sum(bool(hands[3] & BETTER_FEEDS) for hands in plain) / len(plain)
    drawn_share = sum(bool(hands[3] & BETTER_FEEDS) for hands in drawn) / len(drawn)
    assert drawn_share < plain_share - 0.15
    plain_partner = sum(hands[2] & BETTER_FEEDS == BETTER_FEEDS for hands in plain) / len(plain)
    drawn_partner = sum(hands[2] & BETTER_FEEDS == BETTER_FEEDS for hands in drawn) / len(drawn)
    assert drawn_partner > plain_partner + 0.1


class Needle:
    """A reading that almost no deal fits, a little better when seat 3 holds the ten of clubs."""

    def likelihood(self, hands: tuple[Mask, ...]) -> float:
        return 1e-9 if hands[3] & TEN_OF_CLUBS else 1e-12


def test_when_no_draw_fits_the_likeliest_is_kept() -> None:
    state = fed_the_jack()
    observation = state.observation(0)
    k = read_knowledge(observation)
    for seed in range(5):
        hands = sample_by_auction(k, observation, [Needle()], random.Random(seed), math.inf)
        assert hands[3] & TEN_OF_CLUBS
