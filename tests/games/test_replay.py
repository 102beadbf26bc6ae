"""The replay of a finished round: the deal, the auction, each trick at its seats, the score."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from games.engine import Pass
from games.models import Room, Round
from games.selectors import round_state
from games.services import rooms as room_services
from games.services.table import round_apply_action
from tests.factories import make_user, seated_room
from tests.games.replays import DEAL, NAMES, play_scripted_round, replay_url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def players(db) -> list[User]:
    return [make_user(name) for name in NAMES]


@pytest.fixture
def played(players, queued) -> tuple[Room, Round]:
    return play_scripted_round(players)


def step_html(page: str, number: int) -> str:
    """Return the markup of one step of the page, up to the next step or the page's nav."""
    start = page.index(f'id="step-{number}"')
    ends = [
        page.find(mark, start) for mark in (f'id="step-{number + 1}"', 'class="replay-contents"')
    ]
    return page[start : min(end for end in ends if end != -1)]


def test_the_deal_shows_the_four_hands_as_dealt(client, players, played):
    room, round_ = played
    client.force_login(players[2])

    page = client.get(replay_url(room, round_)).text

    deal = step_html(page, 1)
    assert "hidden" not in deal.split(">", 1)[0]
    for hand in DEAL:
        for card in hand.split():
            assert f'data-card="{card}"' in deal
    for name in NAMES:
        assert name in deal
    # The viewer's seat is at the bottom of the felt, their partner at the top.
    assert re.search(r'replay-seat-bottom">\s*<span class="replay-seat-name">Maria<', deal)
    assert re.search(r'replay-seat-top">\s*<span class="replay-seat-name">Eleni<', deal)


def test_the_auction_says_who_bid_what_and_the_contract(client, players, played):
    room, round_ = played
    client.force_login(players[0])

    auction = step_html(client.get(replay_url(room, round_)).text, 2)

    calls = re.findall(
        r'<span class="replay-who">(\w+)</span> <span class="replay-call replay-call-(\w+)">',
        auction,
    )
    assert calls == [
        ("Eleni", "bid"),
        ("Costas", "close"),
        ("Maria", "pass"),
        ("Andreas", "pass"),
        ("Eleni", "pass"),
    ]
    assert "Contract: 80 hearts" in auction
    assert "bid by Eleni" in auction
    assert "closed \N{MULTIPLICATION SIGN}2" in auction
    # Every declaration was announced and shown; seat 0 called pilotta and re-pilotta.
    assert auction.count('class="replay-shown"') == 4
    assert "Pilotta and re-pilotta" in auction


def test_each_trick_shows_its_cards_at_their_seats_and_its_winner(client, players, played):
    room, round_ = played
    state = round_state(round_)
    client.force_login(players[0])

    page = client.get(replay_url(room, round_)).text

    positions = ["bottom", "right", "top", "left"]  # seat 0 looks from the bottom
    so_far = [0, 0]
    for number, trick in enumerate(state.tricks, start=1):
        html = step_html(page, number + 2)
        so_far[trick.winner % 2] += trick.points
        for position, card in enumerate(trick.cards):
            seat = trick.seat_of(position, 4)
            slot = re.search(
                rf'replay-slot-{positions[seat]}[^"]*">.*?data-card="(\w+)"', html, re.S
            )
            assert slot, (number, seat)
            assert slot.group(1) == str(card)
        winner = f"{NAMES[trick.winner]} took it, {trick.points} points."
        assert winner in html
        assert f'replay-slot-{positions[trick.winner]} is-winner"' in html
        assert f"Seats 1 & 3 <b>{so_far[0]}</b>" in html
        assert f"Seats 2 & 4 <b>{so_far[1]}</b>" in html


def test_the_score_is_the_engines_result(client, players, played):
    room, round_ = played
    result = round_state(round_).result
    assert result is not None
    client.force_login(players[1])

    score = step_html(client.get(replay_url(room, round_)).text, 11)

    cells = r'<th scope="row">([^<]+)</th><td>(\d+)</td><td>(\d+)</td>'
    rows = {label: (int(a), int(b)) for label, a, b in re.findall(cells, score)}
    assert rows == {
        "Cards and last trick": result.card_points,
        "Declarations": result.declarations,
        "Pilotta": result.pilotta,
        "Points": result.raw,
        "On the score sheet": result.score,
    }
    verdict = "The contract was made." if result.made else "The contract failed"
    assert verdict in score
    assert ("Capot" in score) == (result.capot is not None)


def test_each_step_is_a_link_that_works_without_javascript(client, players, played):
    room, round_ = played
    url = replay_url(room, round_)
    client.force_login(players[0])

    first = client.get(url).text
    fourth = client.get(url + "?step=4").text
    last = client.get(url + "?step=11").text
    old_link = client.get(url + "?trick=2").text

    assert 'href="?step=2" data-replay-to="2">Next' in first
    assert re.search(r'<a class="replay-button" data-replay-previous aria-disabled="true">', first)
    visible = re.findall(r'id="step-(\d+)" [^>]*?(?<!hidden)>', fourth)
    assert visible == ["4"]
    assert 'href="?step=3" data-replay-to="3">' in fourth
    assert 'href="?step=5" data-replay-to="5">Next' in fourth
    assert re.search(r"data-replay-next aria-disabled=\"true\"", last)
    assert re.findall(r'id="step-(\d+)" [^>]*?(?<!hidden)>', old_link) == ["4"]
    assert 'src="/static/js/replay.js" defer' in first


def test_a_step_link_keeps_the_match_asked_for(client, players, played):
    room, round_ = played
    client.force_login(players[0])

    page = client.get(replay_url(room, round_) + f"?match={round_.match_id}&step=3").text

    assert f'href="?match={round_.match_id}&amp;step=4"' in page


def test_the_page_has_no_inline_script_or_style(client, players, played):
    room, round_ = played
    client.force_login(players[0])

    page = client.get(replay_url(room, round_)).text

    assert "style=" not in page
    assert " onclick" not in page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)


def test_a_stranger_gets_no_replay(client, played):
    room, round_ = played
    client.force_login(make_user())

    assert client.get(replay_url(room, round_)).status_code == 404


def test_a_visitor_is_sent_to_log_in(client, played):
    room, round_ = played

    response = client.get(replay_url(room, round_))

    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


def test_a_round_being_played_has_no_replay(client, players, queued):
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    client.force_login(players[0])

    response = client.get(reverse("games:round_replay", args=[room.pk, 1]))

    assert response.status_code == 404


def test_the_replay_reads_the_database_a_fixed_number_of_times(
    client, players, played, django_assert_num_queries
):
    room, round_ = played
    client.force_login(players[0])

    # The session, the user, the room, the match, the round with its match and room, the
    # seats with their players, and the round's log.
    with django_assert_num_queries(7):
        response = client.get(replay_url(room, round_) + "?step=5")

    assert response.status_code == 200


def test_the_query_count_does_not_grow_with_the_steps(client, players, played):
    room, round_ = played
    client.force_login(players[0])
    counts = []
    for step in (1, 6, 11):
        with CaptureQueriesContext(connection) as queries:
            client.get(replay_url(room, round_) + f"?step={step}")
        counts.append(len(queries))

    assert len(set(counts)) == 1


def test_a_cancelled_round_has_no_replay(client, players, queued):
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    first = Round.objects.get(match__room=room)
    state = round_state(first)
    while state.to_act is not None:
        seat = state.to_act
        round_apply_action(round_id=first.pk, seat=seat, action=Pass(), actor=players[seat])
        state = state.apply(seat, Pass())
    first.refresh_from_db()
    assert first.status == Round.Status.CANCELLED
    client.force_login(players[0])

    assert client.get(replay_url(room, first)).status_code == 404
