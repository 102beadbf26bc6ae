"""Cards, suits, ranks, points and the trick order."""

import copy
import pickle

import pytest

from games.engine import (
    DECK,
    Card,
    EngineError,
    Rank,
    Suit,
    card_points,
    next_seat,
    parse_cards,
    team_of,
)


def test_seats_move_to_the_next_and_partners_sit_opposite() -> None:
    assert [next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_suit_and_rank_letters_round_trip() -> None:
    assert [str(s) for s in Suit] == ["C", "D", "H", "S"]
    assert [str(r) for r in Rank] == list("789TJQKA")
    assert Suit.parse("H") is Suit.HEARTS
    assert Rank.parse("T") is Rank.TEN
    assert f"{Suit.SPADES}{Rank.ACE}" == "SA"
    assert repr(Suit.HEARTS) == "Suit.HEARTS"


@pytest.mark.parametrize("text", ["", "h", "X", "HH", "10"])
def test_bad_suit_or_rank_letters_are_refused(text: str) -> None:
    with pytest.raises(EngineError):
        Suit.parse(text)
    with pytest.raises(EngineError):
        Rank.parse(text)


def test_card_text_round_trip_and_repr_rebuilds_it() -> None:
    card = Card.parse("JH")
    assert (card.suit, card.rank, card.index) == (Suit.HEARTS, Rank.JACK, 2 * 8 + 4)
    assert str(card) == "JH"
    assert repr(card) == "Card.parse('JH')"
    assert eval(repr(card)) is card


def test_the_32_cards_are_interned() -> None:
    assert len(DECK) == 32
    assert [c.index for c in DECK] == list(range(32))
    for card in DECK:
        assert Card.from_index(card.index) is card
        assert Card(card.suit, card.rank) is card
        assert Card.parse(str(card)) is card
        assert copy.deepcopy(card) is card
        assert pickle.loads(pickle.dumps(card)) is card
    assert len(set(DECK)) == 32


def test_cards_are_immutable() -> None:
    with pytest.raises(AttributeError):
        Card.parse("JH").rank = Rank.ACE  # type: ignore[misc]


@pytest.mark.parametrize("text", ["", "J", "JHH", "1H", "jh", "10H"])
def test_bad_cards_are_refused(text: str) -> None:
    with pytest.raises(EngineError):
        Card.parse(text)


@pytest.mark.parametrize("index", [-1, 32, True])
def test_bad_card_indexes_are_refused(index: int) -> None:
    with pytest.raises(EngineError):
        Card.from_index(index)


def test_parse_cards_reads_a_hand() -> None:
    assert parse_cards("JH 9H AH") == (Card.parse("JH"), Card.parse("9H"), Card.parse("AH"))
    assert parse_cards("") == ()


def test_card_points_in_trumps_and_side_suits() -> None:
    trumps = {r: card_points(Card.parse(r + "H"), Suit.HEARTS) for r in "J9ATKQ87"}
    assert trumps == {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
    side = {r: card_points(Card.parse(r + "S"), Suit.HEARTS) for r in "AT KQJ987".replace(" ", "")}
    assert side == {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


@pytest.mark.parametrize("trump", list(Suit))
def test_cards_add_up_to_152_plus_the_last_trick_162(trump: Suit) -> None:
    assert sum(card_points(card, trump) for card in DECK) + 10 == 162
