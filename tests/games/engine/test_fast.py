"""Tests of the bitmask play core: the legal cards, tricks, and random playouts."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.fast import (
    BEATEN_BY,
    FULL_DECK,
    POINTS,
    STRENGTH,
    TOTAL_POINTS,
    Outcome,
    PlayPosition,
    card_name,
    cards_of,
    iter_bits,
    legal,
    legal_mask,
    legal_mask_from,
    mask_of,
    parse_card,
    parse_cards,
    play,
    playout,
    playout_from,
    popcount,
    random_deal,
    side_of,
    trick_points,
    trick_winner,
    winning_card,
)

HEARTS = 2

# --- an oracle written from the card order and the legal cards, sharing nothing with the core ---

TRUMP_ORDER = "J9ATKQ87"  # high to low
SIDE_ORDER = "ATKQJ987"
TRUMP_POINTS = dict(zip(TRUMP_ORDER, (20, 14, 11, 10, 4, 3, 0, 0), strict=True))
SIDE_POINTS = dict(zip(SIDE_ORDER, (11, 10, 4, 3, 2, 0, 0, 0), strict=True))


def beats(card: str, other: str, led: str, trump: str) -> bool:
    """Tell whether ``card`` ranks above ``other`` in a trick where ``led`` was led."""

    def key(name: str) -> tuple[int, int]:
        rank, suit = name[0], name[1]
        if suit == trump:
            return (2, -TRUMP_ORDER.index(rank))
        if suit == led:
            return (1, -SIDE_ORDER.index(rank))
        return (0, 0)

    return key(card) > key(other)


def oracle_winner(trick: Sequence[str], trump: str) -> int:
    """Return the position in the trick of the card that wins it."""
    led = trick[0][1]
    best = 0
    for i, name in enumerate(trick):
        if beats(name, trick[best], led, trump):
            best = i
    return best


def oracle_legal(hand: Sequence[str], trick: Sequence[str], trump: str) -> set[str]:
    """Return the legal cards, following the rules text line by line."""
    if not trick:
        return set(hand)
    led = trick[0][1]
    trumps_on_trick = [name for name in trick if name[1] == trump]
    highest_trump = trick[oracle_winner(trick, trump)] if trumps_on_trick else None
    followers = {name for name in hand if name[1] == led}
    trumps = {name for name in hand if name[1] == trump}
    if followers:
        if led != trump or highest_trump is None:
            return followers
        higher = {name for name in followers if beats(name, highest_trump, led, trump)}
        return higher or followers
    if trumps:
        if highest_trump is None:
            return trumps
        higher = {name for name in trumps if beats(name, highest_trump, led, trump)}
        return higher or trumps
    return set(hand)


def names(mask: int) -> set[str]:
    return {card_name(card) for card in iter_bits(mask)}


def relabel(text: str, trump: int) -> str:
    """Rewrite cards given with hearts as trump for another trump suit (swap H with it)."""
    swap = {"H": "CDHS"[trump], "CDHS"[trump]: "H"}
    return " ".join(name[0] + swap.get(name[1], name[1]) for name in text.split())


# --- bits and tables ------------------------------------------------------------------------------


def test_card_names_round_trip() -> None:
    assert [card_name(card) for card in range(32)][:9] == [
        "7C",
        "8C",
        "9C",
        "TC",
        "JC",
        "QC",
        "KC",
        "AC",
        "7D",
    ]
    assert all(parse_card(card_name(card)) == card for card in range(32))
    assert parse_card("JH") == 2 * 8 + 4
    with pytest.raises(ValueError, match="not a card"):
        parse_card("1H")


@given(st.sets(st.integers(0, 31)))
def test_bit_helpers(cards: set[int]) -> None:
    mask = mask_of(cards)
    assert cards_of(mask) == sorted(cards)
    assert list(iter_bits(mask)) == sorted(cards)
    assert popcount(mask) == len(cards)


@pytest.mark.parametrize("trump", range(4))
def test_tables_follow_rules(trump: int) -> None:
    suit = "CDHS"[trump]
    assert sum(POINTS[trump]) == TOTAL_POINTS - 10
    for card in range(32):
        name = card_name(card)
        table = TRUMP_POINTS if name[1] == suit else SIDE_POINTS
        assert POINTS[trump][card] == table[name[0]]
        # BEATEN_BY[card] is what beats `card` when it is winning, i.e. when its suit was led.
        expected = {
            other for other in range(32) if beats(card_name(other), name, led=name[1], trump=suit)
        }
        assert set(iter_bits(BEATEN_BY[trump][card])) == expected
        for other in range(32):
            if card_name(other)[1] == name[1]:
                assert (STRENGTH[trump][other] > STRENGTH[trump][card]) == beats(
                    card_name(other), name, led=name[1], trump=suit
                )


# --- legality, one rule at a time (cards written with hearts as trump) ---------------------------

LEGALITY_CASES = [
    pytest.param("7C KC 9H JS", "", "7C KC 9H JS", id="lead-any-card"),
    pytest.param("7C KC 9H JS", "AC", "7C KC", id="follow-suit"),
    pytest.param("7C KC 9H JS", "AC JH", "7C KC", id="follow-suit-even-when-trumped"),
    pytest.param("JH 7H AC", "9H", "JH", id="trump-led-must-beat"),
    pytest.param("9H 8H KC", "7H AH QH", "9H", id="trump-led-must-beat-partners-trump"),
    pytest.param("9H 7H AC", "JH", "9H 7H", id="trump-led-cannot-beat-any-trump"),
    pytest.param("7H 8H AS", "AC 7C", "7H 8H", id="void-must-trump-though-partner-wins"),
    pytest.param("JH 7H AS", "AC 9H", "JH", id="must-overtrump"),
    pytest.param("JH 7H AS", "AC 9H TC", "JH", id="must-overtrump-partners-trump"),
    pytest.param("9H 7H AS", "AC JH", "9H 7H", id="must-undertrump"),
    pytest.param("9H QH AS", "AC 8H AH", "9H", id="overtrump-the-highest-trump"),
    pytest.param("AS 7D", "AC", "AS 7D", id="void-no-trump-any-card"),
    pytest.param("AS 7D", "AC JH", "AS 7D", id="void-no-trump-any-card-over-trump"),
]


@pytest.mark.parametrize("trump", range(4))
@pytest.mark.parametrize(("hand", "trick", "expected"), LEGALITY_CASES)
def test_legal_mask(hand: str, trick: str, expected: str, trump: int) -> None:
    hand_mask = mask_of(parse_cards(relabel(hand, trump)))
    trick_cards = parse_cards(relabel(trick, trump))
    assert names(legal_mask(hand_mask, trick_cards, trump)) == set(relabel(expected, trump).split())


hands_and_tricks = st.permutations(
    range(32)
).flatmap(
    lambda deck: st.tuples(
        st.integers(1, 8).map(lambda size: deck[:size]),  # a hand of 1..8 cards
        st.integers(0, 3).map(lambda size: deck[8 : 8 + size]),  # 0..3 cards on the trick
        st.integers(0, 3),
    )
)


@settings(max_examples=400)
@given(hands_and_tricks)
def test_legal_mask_matches_rules_oracle(
    case: tuple[Sequence[int], Sequence[int], int],
) -> None:
    hand, trick, trump = case
    expected = oracle_legal(
        [card_name(c) for c in hand], [card_name(c) for c in trick], "CDHS"[trump]
    )
    assert names(legal_mask(mask_of(hand), trick, trump)) == expected


def test_legal_mask_from_empty_trick_is_the_hand() -> None:
    assert legal_mask_from(0b1011, -1, 0, HEARTS) == 0b1011


# --- tricks ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trick", "leader", "winner"),
    [
        pytest.param("TC AC 7C KC", 0, 1, id="highest-of-led-suit"),
        pytest.param("9C AS AD 8C", 2, 2, id="other-suits-never-win"),
        pytest.param("AC 7H TC KC", 3, 0, id="a-small-trump-wins"),
        pytest.param("AC 7H 9H KC", 1, 3, id="overtrump-wins"),
        pytest.param("9H AH JH TH", 0, 2, id="trump-led-jack-highest"),
        pytest.param("AH 9H KH QH", 3, 0, id="trump-led-nine-over-ace"),
    ],
)
def test_trick_winner(trick: str, leader: int, winner: int) -> None:
    assert trick_winner(parse_cards(trick), leader, HEARTS) == winner


@settings(max_examples=300)
@given(st.permutations(range(32)).map(lambda deck: deck[:4]), st.integers(0, 3), st.integers(0, 3))
def test_trick_winner_matches_oracle(trick: list[int], leader: int, trump: int) -> None:
    position = oracle_winner([card_name(c) for c in trick], "CDHS"[trump])
    assert trick_winner(trick, leader, trump) == (leader + position) % 4
    assert winning_card(trick, trump) == trick[position]


def test_trick_points() -> None:
    assert trick_points(parse_cards("JH 9H AH TH"), HEARTS) == 55
    assert trick_points(parse_cards("JC 9C AC TC"), HEARTS) == 23
    assert trick_points(parse_cards("KH QH 8H 7H"), HEARTS) == 7


# --- positions ------------------------------------------------------------------------------------


def test_play_finishes_tricks_and_rejects_illegal_cards() -> None:
    hands = [mask_of(parse_cards(text)) for text in ("AC 7D", "7C 8D", "JH 9D", "KC TD")]
    pos = PlayPosition.start(hands, leader=0, trump=HEARTS)
    with pytest.raises(ValueError, match="may not play"):
        play(pos, parse_card("AS"))  # not in the hand
    pos = play(pos, parse_card("AC"))
    assert pos.to_act == 1
    assert names(legal(pos)) == {"7C"}
    with pytest.raises(ValueError, match="may not play 8D"):
        play(pos, parse_card("8D"))
    for name in ("7C", "JH", "KC"):
        pos = play(pos, parse_card(name))
    assert (pos.leader, pos.trick, pos.points, pos.tricks) == (2, (), (35, 0), (1, 0))
    for name in ("9D", "TD", "7D", "8D"):
        pos = play(pos, parse_card(name))
    # 9D led, TD (seat 3) wins: 10 points plus the last trick.
    assert pos.is_over
    assert (pos.points, pos.tricks) == ((35, 20), (1, 1))


def replay(pos: PlayPosition, cards: Sequence[int]) -> PlayPosition:
    """Play ``cards`` from ``pos`` through the checked API, asserting each one is legal."""
    for card in cards:
        assert legal(pos) >> card & 1, f"{card_name(card)} illegal at {pos}"
        pos = play(pos, card)
    return pos


# --- random playouts -----------------------------------------------------------------------------


@settings(max_examples=300)
@given(st.integers(0, 2**32), st.integers(0, 3), st.integers(0, 3))
def test_playout_plays_only_legal_cards(seed: int, leader: int, trump: int) -> None:
    rng = random.Random(seed)
    hands = random_deal(rng)
    trace: list[int] = []
    outcome = playout(hands, leader, trump, rng, trace=trace)
    assert sorted(trace) == list(range(32))  # every card played exactly once
    end = replay(PlayPosition.start(hands, leader, trump), trace)
    assert end.is_over
    assert outcome == Outcome(end.points, end.tricks)
    assert sum(outcome.points) == TOTAL_POINTS
    assert sum(outcome.tricks) == 8


@settings(max_examples=200)
@given(st.integers(0, 2**32), st.integers(0, 31), st.integers(0, 3))
def test_playout_from_mid_play(seed: int, cards_played: int, trump: int) -> None:
    rng = random.Random(seed)
    pos = PlayPosition.start(random_deal(rng), leader=rng.randrange(4), trump=trump)
    for _ in range(cards_played):
        pos = play(pos, rng.choice(cards_of(legal(pos))))
    trace: list[int] = []
    outcome = playout_from(pos, rng, trace=trace)
    assert len(trace) == 32 - cards_played
    end = replay(pos, trace)
    assert end.is_over
    assert outcome == Outcome(end.points, end.tricks)
    assert sum(outcome.points) == TOTAL_POINTS


def test_a_position_of_three_counts_seat_0_against_the_other_two() -> None:
    assert [side_of(seat, 4) for seat in range(4)] == [0, 1, 0, 1]
    assert [side_of(seat, 2) for seat in range(2)] == [0, 1]
    assert [side_of(seat, 3) for seat in range(3)] == [0, 1, 1]
    # Seat 1 leads the ace of hearts, seat 2 follows with the ten, seat 0 with the king.
    hands = (mask_of([8 * HEARTS + 6]), mask_of([8 * HEARTS + 7]), mask_of([8 * HEARTS + 3]))
    pos = PlayPosition.start(hands, 1, 0, players=3)
    for seat in (1, 2, 0):
        assert pos.to_act == seat
        pos = play(pos, cards_of(pos.hands[seat])[0])
    assert pos.is_over
    assert pos.leader == 1
    assert pos.points == (0, 11 + 10 + 4 + 10)
    assert pos.tricks == (0, 1)


def test_playout_from_finished_position_returns_its_score() -> None:
    pos = PlayPosition((0, 0, 0, 0), (), 1, HEARTS, (100, 62), (5, 3))
    assert playout_from(pos, random.Random(1)) == Outcome((100, 62), (5, 3))


def test_playout_rejects_a_partial_deal() -> None:
    hands = random_deal(random.Random(1))
    with pytest.raises(ValueError, match="full deal"):
        playout((hands[0] & (hands[0] - 1), *hands[1:]), 0, HEARTS, random.Random(1))
    uneven = PlayPosition.start((hands[0] | hands[1], 0, hands[2], hands[3]), 0, HEARTS)
    with pytest.raises(ValueError, match="one card per remaining trick"):
        playout_from(uneven, random.Random(1))


def test_playout_is_deterministic_given_a_seed() -> None:
    hands = random_deal(random.Random(7))
    runs = []
    for _ in range(2):
        trace: list[int] = []
        runs.append((playout(hands, 2, HEARTS, random.Random(42), trace=trace), trace))
    assert runs[0] == runs[1]
    others = {tuple(playout_trace(hands, seed)) for seed in range(20)}
    assert len(others) > 1


def playout_trace(hands: Sequence[int], seed: int) -> list[int]:
    trace: list[int] = []
    playout(hands, 0, HEARTS, random.Random(seed), trace=trace)
    return trace


def test_capot_is_reported() -> None:
    # Seat 0 holds every trump: it wins all eight tricks when it leads them.
    hearts = mask_of(range(16, 24))
    hands = (hearts, mask_of(range(8)), mask_of(range(8, 16)), mask_of(range(24, 32)))
    outcome = playout(hands, 0, HEARTS, random.Random(3))
    assert outcome == Outcome((TOTAL_POINTS, 0), (8, 0))
    assert outcome.capot == 0
    assert Outcome((100, 62), (5, 3)).capot is None
    assert Outcome((0, 162), (0, 8)).capot == 1


def first_cards(pos: PlayPosition, runs: int) -> Counter[int]:
    """Count the first card played by ``runs`` random playouts from ``pos``."""
    rng = random.Random(5)
    counts: Counter[int] = Counter()
    for _ in range(runs):
        trace: list[int] = []
        playout_from(pos, rng, trace=trace)
        counts[trace[0]] += 1
    return counts


@pytest.mark.parametrize(
    ("played", "choices"), [("", "AC 7D 8D 9D TD JD QD KD"), ("AC", "7C 8C 9C")]
)
def test_playout_draws_uniformly_among_legal_cards(played: str, choices: str) -> None:
    deal = ("AC 7D 8D 9D TD JD QD KD", "7C 8C 9C AD 7S 8S 9S TS", "TC JC QC KC JS QS KS AS")
    hands = [mask_of(parse_cards(text)) for text in deal]
    pos = PlayPosition.start(
        [*hands, FULL_DECK ^ hands[0] ^ hands[1] ^ hands[2]], leader=0, trump=HEARTS
    )
    pos = replay(pos, parse_cards(played))
    runs = 800 * len(choices.split())
    counts = first_cards(pos, runs)
    assert {card_name(card) for card in counts} == set(choices.split())
    expected = runs / len(counts)
    assert all(abs(n - expected) < 5 * expected**0.5 for n in counts.values())


def test_random_deal() -> None:
    rng = random.Random(9)
    seats: Counter[int] = Counter()
    for _ in range(4000):
        hands = random_deal(rng)
        assert [popcount(hand) for hand in hands] == [8, 8, 8, 8]
        assert hands[0] | hands[1] | hands[2] | hands[3] == FULL_DECK
        seats[next(seat for seat in range(4) if hands[seat] & 1)] += 1
    assert all(900 < n < 1100 for n in seats.values())
    assert random_deal(random.Random(3)) == random_deal(random.Random(3))
