"""The classic deal: 3-2 from dealer + 1, the turned card, the stock, completion."""

import random
from typing import Any

import pytest

from games.engine import (
    DECK,
    SHORT_DECK,
    InvalidDealError,
    MatchState,
    Phase,
    Rank,
    RoundState,
    Ruleset,
    complete_deal,
    deal_classic,
    draw_cut,
    parse_cards,
)

from .classic_helpers import classic_deal, new_classic, take

# Four players, dealer 3: seat 0 receives first. Completed for seat 0 taking the turned TH.
FOUR = [
    "AC KC QC AD KD TH AS 7S",
    "9H QH 7D 8D 9D TD JD QD",
    "JH 8H 9S TS JS QS KS 8S",
    "7C 8C 9C TC JC AH KH 7H",
]
# Its deal: five cards each, the turned card and the 11 cards of the stock.
FOUR_FIRST = ["AC KC QC AD KD", "9H QH 7D 8D 9D", "JH 8H 9S TS JS", "7C 8C 9C TC JC"]
FOUR_TURNED = "TH"
FOUR_STOCK = "AS 7S TD JD QD QS KS 8S AH KH 7H"

# Three players, 24 cards, dealer 2: seat 0 receives first; seat 0 takes the turned JH.
THREE = [
    "AC TC KC AD TD JH AH 9S",
    "QC JC 9C KD QD 9H TH TS",
    "AS KS QS JS JD KH QH 9D",
]
# Two players, dealer 1: seat 0 receives first and takes JH; eight cards stay face down.
TWO = ["AC TC KC AD TD JH AH 9S", "QC JC 9C KD QD 9H TH TS"]
TWO_UNUSED = "AS KS QS JS JD KH QH 9D"


def cards(text: str) -> list[str]:
    return text.split()


def test_the_helper_builds_the_deal_a_dealer_would_give() -> None:
    dealt = classic_deal(dealer=3, hands=FOUR, taker=0)
    assert [list(map(str, hand)) for hand in dealt["hands"]] == [cards(h) for h in FOUR_FIRST]
    assert str(dealt["turned"]) == FOUR_TURNED
    assert [str(card) for card in dealt["stock"]] == cards(FOUR_STOCK)


def test_the_classic_decks() -> None:
    assert Ruleset.classic(4).deck == DECK
    for players in (2, 3):
        deck = Ruleset.classic(players).deck
        assert deck == SHORT_DECK
        assert len(deck) == 24
        assert {card.rank for card in deck} == {
            Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE,
        }  # fmt: skip


def test_four_players_get_3_then_2_from_the_dealers_right_and_the_next_card_is_turned() -> None:
    dealt = deal_classic(DECK, dealer=1, cut=5, players=4)
    order = list(DECK[5:] + DECK[:5])
    # Seats 2, 3, 0, 1 receive 3 cards each, then 2 each.
    expected = {
        2: order[0:3] + order[12:14],
        3: order[3:6] + order[14:16],
        0: order[6:9] + order[16:18],
        1: order[9:12] + order[18:20],
    }
    assert [list(hand) for hand in dealt.hands] == [expected[seat] for seat in range(4)]
    assert dealt.turned == order[20]
    assert list(dealt.stock) == order[21:]
    assert len(dealt.stock) == 11


def test_three_players_deal_from_24_cards_and_keep_8_in_the_stock() -> None:
    dealt = deal_classic(SHORT_DECK, dealer=2, cut=4, players=3)
    order = list(SHORT_DECK[4:] + SHORT_DECK[:4])
    expected = {
        0: order[0:3] + order[9:11],
        1: order[3:6] + order[11:13],
        2: order[6:9] + order[13:15],
    }
    assert [list(hand) for hand in dealt.hands] == [expected[seat] for seat in range(3)]
    assert dealt.turned == order[15]
    assert list(dealt.stock) == order[16:]
    assert len(dealt.stock) == 8


def test_two_players_a_deal_by_hand() -> None:
    deck = parse_cards("9C TC JC QC KC AC 9D TD JD QD KD AD 9H TH JH QH KH AH 9S TS JS QS KS AS")
    dealt = deal_classic(deck, dealer=0, cut=3, players=2)
    # After the cut of 3: QC KC AC | 9D TD JD | QD KD | AD 9H | TH | JH ... JC.
    assert dealt.hands == (parse_cards("9D TD JD AD 9H"), parse_cards("QC KC AC QD KD"))
    assert str(dealt.turned) == "TH"
    assert dealt.stock == parse_cards("JH QH KH AH 9S TS JS QS KS AS 9C TC JC")
    # Seat 0 takes: seat 1 receives its three first, then seat 0 the turned card and two.
    completed = complete_deal(
        dealt.hands, turned=dealt.turned, stock=dealt.stock, dealer=0, taker=0
    )
    assert completed == (
        parse_cards("9D TD JD AD 9H TH AH 9S"),
        parse_cards("QC KC AC QD KD JH QH KH"),
    )
    # Seat 1 takes: it receives the turned card and the first two, seat 0 the next three.
    completed = complete_deal(
        dealt.hands, turned=dealt.turned, stock=dealt.stock, dealer=0, taker=1
    )
    assert completed == (
        parse_cards("9D TD JD AD 9H KH AH 9S"),
        parse_cards("QC KC AC QD KD TH JH QH"),
    )


@pytest.mark.parametrize(
    ("players", "deck", "cut"),
    [
        (3, DECK, 5),  # 32 cards for three players
        (4, SHORT_DECK, 5),  # 24 cards for four
        (2, SHORT_DECK[:-1], 5),
        (3, (*SHORT_DECK[:-1], SHORT_DECK[0]), 5),  # a repeated card
        (3, SHORT_DECK, 2),  # the cut leaves fewer than 3 cards
        (3, SHORT_DECK, 22),
    ],
)
def test_deal_classic_refuses_a_wrong_deck_or_cut(players: int, deck: Any, cut: int) -> None:
    with pytest.raises(InvalidDealError):
        deal_classic(deck, dealer=0, cut=cut, players=players)


@pytest.mark.parametrize(("players", "dealer"), [(3, 3), (2, 2), (4, 4), (3, -1), (3, True)])
def test_deal_classic_refuses_a_seat_not_at_the_table(players: int, dealer: Any) -> None:
    deck = Ruleset.classic(players).deck
    with pytest.raises(InvalidDealError):
        deal_classic(deck, dealer=dealer, cut=5, players=players)


def test_the_cut_of_24_cards_is_between_3_and_21() -> None:
    rng = random.Random(3)
    assert {draw_cut(rng, 24) for _ in range(2000)} == set(range(3, 22))


def test_a_round_starts_with_five_cards_each_and_the_turned_card() -> None:
    state = RoundState.new(
        dealer=3,
        hands=FOUR_FIRST,
        ruleset=Ruleset.classic(4),
        turned=FOUR_TURNED,
        stock=FOUR_STOCK,
    )
    assert state.phase is Phase.AUCTION
    assert state.hands == tuple(parse_cards(hand) for hand in FOUR_FIRST)
    assert state.first_hands == state.hands
    assert str(state.turned) == "TH"
    assert state.stock == parse_cards(FOUR_STOCK)
    assert (state.players, state.auction_round, state.to_act) == (4, 1, 0)


def test_the_taker_receives_the_turned_card_and_two_the_others_three_in_play_order() -> None:
    state = take(new_classic(dealer=3, hands=FOUR, taker=0), 2)
    # Seat 0 receives AS 7S TD, seat 1 JD QD QS, seat 2 (the taker) TH KS 8S, seat 3 AH KH 7H.
    assert state.hands == (
        parse_cards("AC KC QC AD KD AS 7S TD"),
        parse_cards("9H QH 7D 8D 9D JD QD QS"),
        parse_cards("JH 8H 9S TS JS TH KS 8S"),
        parse_cards("7C 8C 9C TC JC AH KH 7H"),
    )
    assert state.first_hands == tuple(parse_cards(hand) for hand in FOUR_FIRST)
    assert state.phase is Phase.PLAY


def test_the_completion_is_the_same_after_a_name_in_round_2() -> None:
    state = take(new_classic(dealer=3, hands=FOUR, taker=0), 0, name="S")
    assert state.hands == tuple(parse_cards(hand) for hand in FOUR)
    assert state.contract is not None
    assert (state.contract.seat, str(state.contract.trump)) == (0, "S")


def test_three_players_complete_to_eight_from_a_stock_of_eight() -> None:
    state = take(new_classic(dealer=2, hands=THREE, taker=0), 0)
    assert state.hands == tuple(parse_cards(hand) for hand in THREE)
    assert len(state.stock) == 8
    # Seat 1 takes the same deal: seat 0 receives three, then seat 1 the turned card and two.
    other = take(new_classic(dealer=2, hands=THREE, taker=0), 1)
    assert other.hands == (
        parse_cards("AC TC KC AD TD AH 9S 9H"),
        parse_cards("QC JC 9C KD QD JH TH TS"),
        parse_cards("AS KS QS JS JD KH QH 9D"),
    )


def test_two_players_leave_the_last_8_cards_of_the_stock_unused() -> None:
    state = take(new_classic(dealer=1, hands=TWO, taker=0, unused=TWO_UNUSED), 0)
    assert state.hands == tuple(parse_cards(hand) for hand in TWO)
    assert len(state.stock) == 13
    assert state.stock[5:] == parse_cards(TWO_UNUSED)
    held = {card for hand in state.hands for card in hand}
    assert held.isdisjoint(parse_cards(TWO_UNUSED))
    assert len(held) == 16


def deal_args(players: int = 4, **changes: Any) -> dict[str, Any]:
    hands = {4: FOUR, 3: THREE, 2: TWO}[players]
    args = classic_deal(
        dealer=players - 1, hands=hands, taker=0, unused=TWO_UNUSED if players == 2 else ""
    )
    args.update(changes)
    return args


def test_the_deal_arguments_are_valid_as_built() -> None:
    for players in (2, 3, 4):
        assert RoundState.new(**deal_args(players)).to_act == 0


@pytest.mark.parametrize(
    ("players", "changes"),
    [
        (4, {"hands": [*FOUR_FIRST[:3], "7C 8C 9C TC"]}),  # four cards
        (4, {"hands": [*FOUR_FIRST[:3], "7C 8C 9C TC JC AH"]}),  # six cards
        (4, {"hands": FOUR_FIRST[:3]}),  # three hands for four players
        (4, {"hands": [*FOUR_FIRST[:3], "7C 8C 9C TC AC"]}),  # AC twice, JC missing
        (4, {"hands": FOUR}),  # eight cards each
        (4, {"turned": None}),  # no turned card
        (4, {"turned": ""}),
        (4, {"turned": "TH AS"}),
        (4, {"turned": "AC"}),  # the turned card is also in a hand
        (4, {"stock": FOUR_STOCK.rsplit(" ", 1)[0]}),  # 10 cards
        (4, {"stock": FOUR_STOCK + " TH"}),  # 12 cards, the turned card twice
        (4, {"dealer": 4}),
        (3, {"stock": "AH 9S 9H TH TS KH QH 7D"}),  # a Seven in a three-player deal
        (3, {"hands": ["AC TC KC AD 7D", "QC JC 9C KD QD", "AS KS QS JS JD"]}),
        (3, {"dealer": 3}),
        (3, {"stock": "AH 9S 9H TH TS KH QH"}),  # 7 cards
        (2, {"stock": "AH 9S 9H TH TS"}),  # without the eight unused cards
        (2, {"stock": "AH 9S 9H TH TS AS KS QS JS JD KH QH 9D 9D"}),
        (2, {"dealer": 2}),
    ],
)
def test_an_invalid_deal_is_refused(players: int, changes: dict[str, Any]) -> None:
    with pytest.raises(InvalidDealError):
        RoundState.new(**deal_args(players, **changes))


def test_the_palaristi_game_turns_no_card() -> None:
    hands = ["AC KC QC AD KD TH AS 7S", *FOUR[1:]]
    with pytest.raises(InvalidDealError):
        RoundState.new(dealer=3, hands=hands, turned="7H")
    with pytest.raises(InvalidDealError):
        RoundState.new(dealer=3, hands=FOUR_FIRST, ruleset=Ruleset(), turned="TH", stock="AS")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_match_deals_a_classic_round_from_its_own_deck(players: int) -> None:
    match = MatchState.new(ruleset=Ruleset.classic(players), first_dealer=players - 1)
    state = match.deal_round(random.Random(players))
    assert state.dealer == players - 1
    assert state.to_act == 0
    assert [len(hand) for hand in state.hands] == [5] * players
    assert len(state.stock) == {4: 11, 3: 8, 2: 13}[players]
    assert state.turned is not None
    dealt = [card for hand in state.hands for card in hand] + [state.turned, *state.stock]
    assert sorted(dealt) == sorted(Ruleset.classic(players).deck)
