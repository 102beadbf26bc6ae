"""The classic game's table as a player reads it, region by region, drawn from snapshots built
by hand (no database): the turned card, taking and naming, 2 and 3 seats, the score."""

import random
import re
from typing import Any

import pytest

from games.engine import (
    Action,
    MatchState,
    Name,
    Pass,
    Phase,
    RoundState,
    Ruleset,
    Take,
)
from games.engine.records import result_json
from games.rendering import TableScreen
from games.snapshots import EndedRound, SeatView, SheetLine, TableSnapshot, contract_json
from games.templatetags.cards import SUIT_SYMBOLS
from tests.games.test_table_rendering import draw
from tests.games.test_table_rendering import snapshot_of as palaristi_snapshot

NAMES = ("Maria", "Petros", "Anna", "Yiannis")


def seats(players: int, bots: tuple[int, ...] = ()) -> tuple[SeatView, ...]:
    return tuple(
        SeatView(
            seat=n,
            user_id=None if n in bots else 100 + n,
            name=None if n in bots else NAMES[n],
            is_bot=n in bots,
            away=False,
        )
        for n in range(players)
    )


def dealt(players: int, seed: int) -> RoundState:
    match = MatchState.new(ruleset=Ruleset.classic(players), first_dealer=seed % players)
    return match.deal_round(random.Random(seed))


def play(state: RoundState, actions: list[Action]) -> RoundState:
    for action in actions:
        assert state.to_act is not None
        state = state.apply(state.to_act, action)
    return state


def finished(players: int, seed: int, *, opening: list[Action] | None = None) -> RoundState:
    rng = random.Random(seed)
    state = play(dealt(players, seed), opening or [Take()])
    while state.to_act is not None:
        state = state.apply(state.to_act, rng.choice(state.legal_actions()))
    return state


def snapshot_of(state: RoundState | None, players: int, **changes: Any) -> TableSnapshot:
    """The palaristi tests' snapshot, made a classic table of ``players``."""
    sides = 2 if players == 4 else players
    classic: dict[str, Any] = {
        "target": 1000,
        "seats": seats(players),
        "variant": "classic",
        "players": players,
        "totals": tuple(range(100, 100 * (sides + 1), 100)),
    }
    return palaristi_snapshot(state, **(classic | changes))


def region(html: str, element_id: str) -> str:
    start = html.index(f'id="{element_id}"')
    return html[start : html.index("</section>", start)]


def center(html: str) -> str:
    start = html.index('id="table-center"')
    return html[start : html.index("</section>", start)]


def controls(html: str) -> str:
    start = html.index('id="table-controls"')
    return html[start : html.index("</section>", start)]


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_turned_card_lies_face_up_in_the_middle_for_everyone(players):
    state = dealt(players, 1)
    for seat in (*range(players), None):
        html = draw(snapshot_of(state, players), seat=seat)
        assert f'data-card="{state.turned}"' in center(html)
        assert "Turned card" in text(center(html))


def test_the_player_to_act_may_take_the_turned_suit_or_pass_in_round_1():
    state = dealt(4, 2)
    html = draw(snapshot_of(state, 4), seat=state.to_act)
    row = controls(html)
    assert 'value="take"' in row
    assert 'value="pass"' in row
    assert "name " not in re.findall(r'value="([^"]+)"', row)
    assert SUIT_SYMBOLS[state.turned.suit] in text(row)
    assert 'class="bid-form"' not in row
    other = draw(snapshot_of(state, 4), seat=(state.to_act + 1) % 4)
    assert 'value="take"' not in controls(other)


def test_round_2_offers_the_three_other_suits_and_pass():
    state = play(dealt(3, 3), [Pass()] * 3)
    assert state.auction_round == 2
    html = draw(snapshot_of(state, 3), seat=state.to_act)
    values = re.findall(r'value="([^"]+)"', controls(html))
    turned = state.turned.suit
    assert sorted(values) == sorted(
        [*(f"name {suit}" for suit in "CDHS" if suit != str(turned)), "pass"]
    )
    assert "second round" in text(center(html))


def test_each_seat_shows_its_last_call_in_front_of_it():
    state = play(dealt(4, 4), [Pass(), Pass(), Pass(), Pass(), Pass()])
    html = draw(snapshot_of(state, 4), seat=0)
    seats_html = html[html.index('id="table-seats"') : html.index('id="table-center"')]
    assert seats_html.count('class="seat-call"') == 4
    state = play(dealt(3, 5), [Pass()] * 3)
    name = next(a for a in state.legal_actions() if isinstance(a, Name))
    html = draw(snapshot_of(play(state, [name]), 3), seat=0)
    taker = NAMES[state.to_act]
    assert f"{taker} names {SUIT_SYMBOLS[name.trump]} and takes the turned card" in text(html)


def test_after_a_take_the_hand_grows_to_eight_and_the_note_says_who_took():
    state = dealt(4, 6)
    taker = state.to_act
    after = play(state, [Take()])
    html = draw(snapshot_of(after, 4), seat=taker)
    hand = html[html.index('id="table-hand"') :]
    assert hand.count("card-button") == 8
    assert f'value="play {after.turned}"' in hand
    note = text(center(html))
    assert f"{NAMES[taker]} takes {SUIT_SYMBOLS[after.turned.suit]} and the turned card" in note


def test_the_contract_shows_the_taker_and_the_trump_without_value_or_multiplier():
    state = play(dealt(4, 7), [Take()])
    html = draw(snapshot_of(state, 4), seat=0)
    strip = html[html.index('<div id="table-strip"') : html.index('<section class="board"')]
    words = text(strip)
    assert NAMES[state.contract.seat] in words
    assert SUIT_SYMBOLS[state.contract.trump] in words
    assert "\u00d7" not in words  # no multiplier
    assert " 0 " not in f" {words} "
    assert "to 1000" in words


def test_two_players_sit_opposite_each_other():
    state = dealt(2, 8)
    html = draw(snapshot_of(state, 2), seat=1)
    assert re.search(r'class="seat seat-bottom[^"]*" id="seat-1"', html)
    assert re.search(r'class="seat seat-top[^"]*" id="seat-0"', html)
    assert 'data-players="2"' in html
    assert "partner" not in html


def test_three_players_see_their_two_opponents():
    state = dealt(3, 9)
    html = draw(snapshot_of(state, 3), seat=2)
    assert re.search(r'class="seat seat-bottom[^"]*" id="seat-2"', html)
    assert re.search(r'class="seat seat-right[^"]*" id="seat-0"', html)
    assert re.search(r'class="seat seat-left[^"]*" id="seat-1"', html)
    assert html.count("badge-role") == 3
    assert html.count(">opponent<") == 2


def test_four_players_of_the_classic_game_have_partners():
    html = draw(snapshot_of(dealt(4, 10), 4), seat=0)
    assert html.count(">partner<") == 1
    assert html.count(">opponent<") == 2


@pytest.mark.parametrize("players", [2, 3])
def test_the_strip_and_the_sheet_have_one_column_per_player(players):
    lines = (SheetLine(number=1, score=tuple(range(10, 10 * (players + 1), 10)), cancelled=False),)
    snapshot = snapshot_of(dealt(players, 11), players, sheet=lines)
    html = draw(snapshot, seat=1)
    strip = text(html[html.index('<div id="table-strip"') : html.index('<section class="board"')])
    # The viewer first, then the others in play order.
    order = [(1 + n) % players for n in range(players)]
    expected = " · ".join(f"{NAMES[seat]} {snapshot.totals[seat]}" for seat in order)
    assert strip.startswith(f"{expected} to 1000")
    sheet = html[html.index('class="score-sheet"') :]
    heads = re.findall(r'<th scope="col">([^<]+)</th>', sheet)
    assert heads == ["Round", *(NAMES[seat] for seat in order)]
    row = re.findall(r"<td>(\d+)</td>", sheet[sheet.index("<tbody>") :])
    assert row[:players] == [str(10 * (seat + 1)) for seat in order]
    assert "Us" not in strip


def test_four_players_read_us_and_them():
    html = draw(snapshot_of(dealt(4, 12), 4, totals=(420, 380)), seat=1)
    strip = text(html[html.index('<div id="table-strip"') : html.index('<section class="board"')])
    assert strip.startswith("Us 380 · Them 420 to 1000")


def ended(state: RoundState) -> EndedRound:
    return EndedRound(
        number=3,
        cancelled=False,
        result=result_json(state.result),
        contract=contract_json(state.contract),
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_round_summary_gives_each_sides_points_total_and_score(players):
    for seed in range(60):
        state = finished(players, seed)
        if state.result is not None:
            break
    result = state.result
    snapshot = snapshot_of(dealt(players, 99), players, summary=ended(state))
    html = draw(snapshot, seat=0)
    summary = html[html.index('class="round-summary') : html.index('class="score-sheet"')]
    words = text(summary)
    row = r"<tr[^>]*><th scope=\"row\">([^<]+)</th>((?:<td>-?\d+</td>)+)</tr>"
    table = re.findall(row, summary)
    rows = {label: [int(v) for v in re.findall(r"-?\d+", cells)] for label, cells in table}
    sides = 2 if players == 4 else players
    mine = 0
    order = [(mine + n) % sides for n in range(sides)]
    assert rows["Total"] == [result.total[side] for side in order]
    assert rows["On the score sheet"] == [result.score[side] for side in order]
    assert rows["Cards and last trick"] == [result.card_points[side] for side in order]
    assert "Rule of 6" not in words
    taker = state.contract.seat
    assert f"{NAMES[taker]} took {SUIT_SYMBOLS[state.contract.trump]}." in words


def test_a_failed_taker_scores_only_its_pilotta_and_the_summary_says_so():
    for seed in range(300):
        state = finished(3, seed)
        if state.result is not None and not state.result.made:
            break
    assert not state.result.made
    html = draw(snapshot_of(dealt(3, 98), 3, summary=ended(state)), seat=0)
    assert "the taker's side scores only its pilotta" in html
    taker = state.contract.team
    assert state.result.score[taker] == state.result.pilotta[taker]


def test_a_capot_adds_a_line_of_100():
    for seed in range(2000):
        state = finished(2, seed)
        if state.result is not None and state.result.capot is not None:
            break
    else:
        pytest.skip("no capot among the random rounds")
    html = draw(snapshot_of(dealt(2, 97), 2, summary=ended(state)), seat=0)
    assert ">Capot</th>" in html
    assert "which count 100 more" in html


@pytest.mark.parametrize(
    ("seat", "headline"),
    [(0, "You won with 1040"), (1, "Maria wins with 1040"), (None, "Maria wins with 1040")],
)
def test_the_result_of_three_players_names_the_winner(seat, headline):
    snapshot = snapshot_of(
        finished(3, 1), 3, match_finished=True, winner=0, totals=(1040, 870, 650)
    )
    assert headline in draw(snapshot, seat=seat)


@pytest.mark.parametrize(
    ("seat", "headline"),
    [(0, "You won 1010–940"), (1, "Maria wins 1010–940"), (None, "Maria wins 1010–940")],  # noqa: RUF001
)
def test_the_result_of_two_players_names_the_winner(seat, headline):
    snapshot = snapshot_of(finished(2, 1), 2, match_finished=True, winner=0, totals=(1010, 940))
    assert headline in draw(snapshot, seat=seat)


def test_a_take_redraws_the_hand_the_center_and_the_controls():
    state = dealt(4, 13)
    taker = state.to_act
    screen = TableScreen(user_id=100 + taker, language="en")
    screen.full(snapshot_of(state, 4))
    html = screen.changes(snapshot_of(play(state, [Take()]), 4, version=6))
    for element in ("table-hand", "table-center", "table-controls", "table-strip"):
        assert f'id="{element}"' in html
    assert html.count("card-button") == 8


@pytest.mark.parametrize(
    ("language", "take", "turned"),
    [("el", "Παίρνω", "Γυρισμένο φύλλο"), ("fr", "Je prends", "Carte retournée")],
)
def test_the_taking_buttons_and_the_turned_card_are_translated(language, take, turned):
    state = dealt(4, 14)
    html = draw(snapshot_of(state, 4), seat=state.to_act, language=language)
    row = text(controls(html))
    assert take in row
    assert "Take" not in row
    assert turned in text(center(html))


def test_the_seating_says_the_game_and_that_each_plays_for_themself():
    snapshot = snapshot_of(None, 3, match_id=None, status="open", round_id=None)
    html = draw(snapshot, seat=0)
    assert "Classic, 3 players, to 1000" in html
    assert "Each player plays for themself." in html
    assert "Partners sit opposite" not in html
    assert html.count('class="room-seat ') == 3


def test_the_play_phase_is_reached_with_the_right_number_of_cards():
    for players in (2, 3, 4):
        state = play(dealt(players, 15), [Take()])
        assert state.phase == Phase.PLAY
        html = draw(snapshot_of(state, players), seat=(state.to_act + 1) % players)
        counts = re.findall(r'<span aria-hidden="true">(\d)</span></span>', html)
        assert counts == ["8"] * (players - 1)


@pytest.mark.parametrize(
    ("language", "word"), [("en", "Taking"), ("el", "Πάρσιμο"), ("fr", "Prise")]
)
def test_the_strip_says_the_trump_is_being_taken_not_bid(language, word):
    state = dealt(4, 3)
    html = draw(snapshot_of(state, 4), seat=0, language=language)
    start = html.index('id="table-strip"')
    strip = text(html[start : html.index("</div>", start)])
    assert word in strip
    assert "Bidding" not in strip
