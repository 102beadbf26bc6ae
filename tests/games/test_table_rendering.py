"""The live table as a player reads it, drawn from snapshots built by hand (no database)."""

# ruff: noqa: RUF001 (scores are written with an en dash, as the table prints them)

import random
import re
from typing import Any

import pytest
from django.utils import translation

from games.engine import Action, Bid, Close, Pass, Phase, Play, RoundState, deal, shuffled_deck
from games.engine.records import result_json
from games.rendering import (
    COMPUTER_NAMES,
    TableScreen,
    Viewer,
    credited_rows,
    render_table,
    seat_name,
)
from games.snapshots import EndedRound, SeatView, TableSnapshot, contract_json

NAMES = ("Maria", None, "Petros", None)  # two people, two computers


def seats() -> tuple[SeatView, ...]:
    return tuple(
        SeatView(
            seat=n, user_id=100 + n if name else None, name=name, is_bot=name is None, away=False
        )
        for n, name in enumerate(NAMES)
    )


def random_round(seed: int, *, steps: int | None = None, closing: bool = False) -> RoundState:
    """Play a round with random legal actions (all of it, or its first ``steps`` actions)."""
    rng = random.Random(seed)
    state = RoundState.new(dealer=seed % 4, hands=deal(shuffled_deck(rng), dealer=seed % 4, cut=5))
    played = 0
    action: Action
    while state.to_act is not None and (steps is None or played < steps):
        legal = state.legal_actions()
        if state.phase == Phase.AUCTION:
            closes = [a for a in legal if isinstance(a, Close)] if closing else []
            bids = [a for a in legal if isinstance(a, Bid)]
            action = (
                closes[0] if closes else (bids[0] if state.high_bid is None and bids else Pass())
            )
            if action not in legal:
                action = rng.choice(legal)
        else:
            action = rng.choice(legal)
        state = state.apply(state.to_act, action)
        played += 1
    return state


def snapshot_of(state: RoundState | None, **changes: Any) -> TableSnapshot:
    base: dict[str, Any] = {
        "version": 5,
        "room_id": 1,
        "room_created": 0.0,
        "owner_id": 100,
        "status": "playing",
        "target": 301,
        "assist": False,
        "seats": seats(),
        "bot_level": "medium",
        "match_id": 1,
        "totals": (124, 97),
        "round_id": 1,
        "round_number": 2,
        "state": state,
    }
    base.update(changes)
    return TableSnapshot(**base)


def draw(snapshot: TableSnapshot, seat: int | None, language: str = "en") -> str:
    viewer = Viewer(user_id=100 + (seat or 0), seat=seat, is_owner=False)
    return render_table(snapshot, viewer, language=language, oob=False)


def seat_block(html: str, seat: int) -> str:
    """Return the markup of one seat's area on the felt."""
    start = html.index(f'id="seat-{seat}"')
    following = [html.find(f'id="seat-{n}"', start + 1) for n in range(4)]
    ends = [i for i in following if i > start] + [html.index('id="table-center"')]
    return html[start : min(ends)]


def test_each_card_of_the_trick_lies_in_front_of_the_seat_that_played_it():
    for seed in range(30):
        state = random_round(seed, steps=None)
        state = random_round(seed, steps=len(state.history) - 2)  # mid-trick, near the end
        if state.phase != Phase.PLAY or not state.current_trick.cards:
            continue
        html = draw(snapshot_of(state), seat=0)
        trick = state.current_trick
        for i, card in enumerate(trick.cards):
            seat = (trick.leader + i) % 4
            assert f'data-card="{card}"' in seat_block(html, seat)
        for seat in set(range(4)) - {(trick.leader + i) % 4 for i in range(len(trick.cards))}:
            assert "trick-card" not in seat_block(html, seat)


def test_the_strip_gives_the_score_from_the_viewers_side_and_the_contract_with_its_holder():
    state = random_round(3, steps=40)
    contract = state.contract
    assert contract is not None
    snapshot = snapshot_of(state, totals=(124, 97))
    html = draw(snapshot, seat=1)  # a seat of team 1: "us" is team 1
    strip = html[html.index('<div id="table-strip"') : html.index('<section class="board"')]
    text = " ".join(re.sub(r"<[^>]+>", " ", strip).split())
    assert text.startswith("Us 97 · Them 124 to 301")
    assert seat_name(snapshot.seats[contract.seat]) in text
    assert str(contract.value) in text


def test_someone_watching_sees_the_teams_by_their_players_names():
    html = draw(snapshot_of(random_round(3, steps=10), totals=(124, 97)), seat=None)
    assert "Maria &amp; Petros" in html
    assert "Us" not in html


@pytest.mark.parametrize("language", ["en", "el", "fr"])
def test_each_computer_has_a_name_of_its_own_and_its_level(language):
    html = draw(snapshot_of(random_round(1, steps=3)), seat=0, language=language)
    with translation.override(language):
        names = [str(COMPUTER_NAMES[seat]) for seat in (1, 3)]
    assert names[0] != names[1]
    for seat, name in zip((1, 3), names, strict=True):
        assert name in seat_block(html, seat)
        assert "badge-computer" in seat_block(html, seat)
    assert "🤖" not in html


def test_only_playable_cards_are_raised_and_in_the_tab_order():
    for seed in range(40):
        state = random_round(seed, steps=None)
        state = random_round(seed, steps=len(state.history) - 3)
        if state.phase == Phase.PLAY and len(state.current_trick.cards) >= 1:
            break
    seat = state.to_act
    html = draw(snapshot_of(state), seat=seat)
    hand = html[html.index('id="table-hand"') :]
    buttons = re.findall(r"<button[^>]*card-button[^>]*>", hand)
    legal = {str(a) for a in state.legal_actions() if isinstance(a, Play) and not a.pilotta}
    assert len(buttons) == len(state.observation(seat).hand)
    for button in buttons:
        action = re.search(r'value="([^"]+)"', button).group(1)
        assert ("is-playable" in button) == (action in legal)
        assert ('tabindex="-1"' in button) == (action not in legal)


def test_during_the_auction_no_card_is_marked():
    state = random_round(2, steps=1)
    html = draw(snapshot_of(state), seat=state.to_act)
    hand = html[html.index('id="table-hand"') :]
    assert "is-dimmed" not in hand
    assert "is-playable" not in hand


def test_each_summary_line_is_credited_so_the_columns_add_up_to_the_points():
    seen = set()
    for seed in range(400):
        state = random_round(seed, closing=seed % 3 == 0)
        if state.contract is None:
            continue
        result = state.result
        contract = state.contract
        rows = credited_rows(
            result, bidders=contract.team, bid=contract.value, multiplier=contract.multiplier
        )
        for team in (0, 1):
            assert sum(values[team] for _label, values in rows) == result.raw[team], seed
        seen.add((contract.multiplier, result.made))
    assert {(1, True), (1, False), (2, True), (2, False)} <= seen


def ended_round(seed: int, *, closing: bool) -> tuple[RoundState, EndedRound]:
    state = random_round(seed, closing=closing)
    return state, EndedRound(
        number=1,
        cancelled=False,
        result=result_json(state.result),
        contract=contract_json(state.contract),
    )


def test_a_closed_round_says_only_the_bid_is_doubled():
    for seed in range(0, 300, 3):
        state, ended = ended_round(seed, closing=True)
        if state.contract is not None and state.contract.multiplier == 2:
            break
    html = draw(snapshot_of(random_round(1, steps=1), summary=ended), seat=0)
    assert "the bid counts double" in html
    assert "everything counts double" not in html
    assert 'class="round-summary overlay" open' in html


@pytest.mark.parametrize(
    ("seat", "headline"),
    [(0, "You won 312–187"), (1, "You lost 187–312"), (None, "Maria &amp; Petros win 312–187")],
)
def test_the_match_result_says_who_won_from_the_viewers_side(seat, headline):
    snapshot = snapshot_of(random_round(1), match_finished=True, winner=0, totals=(312, 187))
    assert headline in draw(snapshot, seat=seat)


def test_a_refusal_is_drawn_beside_the_hand():
    html = draw(snapshot_of(random_round(1, steps=1)), seat=0)
    area = html[html.index('class="hand-area"') :]
    assert area.index('id="table-message"') < area.index('id="table-hand"')


def test_a_played_card_sends_only_the_regions_it_changed():
    for seed in range(40):
        full = random_round(seed)
        before = random_round(seed, steps=len(full.history) - 6)
        if before.phase == Phase.PLAY and before.current_trick.cards:
            break
    after = before.apply(
        before.to_act, next(a for a in before.legal_actions() if isinstance(a, Play))
    )
    watcher = next(seat for seat in range(4) if seat not in (before.to_act, after.to_act))
    screen = TableScreen(user_id=100 + watcher, language="en")
    screen.full(snapshot_of(before))
    html = screen.changes(snapshot_of(after, version=6))
    assert 'id="table-seats"' in html
    assert 'id="table-strip"' not in html
    assert 'id="table-score"' not in html
    assert 'id="table-hand"' not in html
