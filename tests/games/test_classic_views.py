"""The classic game's pages: the room form, the room, invitations and the lobby."""

import re

import pytest
from django.urls import reverse

from games.models import Room, Round
from games.services import rooms as room_services
from tests.factories import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

FORM = {"bot_level": "medium", "turn_seconds": "0"}


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_owner_opens_a_classic_room_for_2_3_or_4(owner_client, owner, players):
    response = owner_client.post(
        reverse("games:room_create"), {**FORM, "variant": "classic", "players": str(players)}
    )

    room = Room.objects.get(owner=owner)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:room", args=[room.pk])
    assert (room.variant, room.players, room.target) == ("classic", players, 1000)
    assert room.seats.count() == players


def test_classic_may_be_sent_with_its_target_of_1000(owner_client, owner):
    response = owner_client.post(
        reverse("games:room_create"),
        {**FORM, "variant": "classic", "players": "3", "target": "1000"},
    )

    assert response.status_code == 302
    assert Room.objects.get(owner=owner).target == 1000


def test_palaristi_is_still_four_players_to_the_target_chosen(owner_client, owner):
    response = owner_client.post(
        reverse("games:room_create"), {**FORM, "variant": "palaristi", "target": "251"}
    )

    assert response.status_code == 302
    room = Room.objects.get(owner=owner)
    assert (room.variant, room.players, room.target, room.seats.count()) == (
        "palaristi",
        4,
        251,
        4,
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"variant": "classic", "players": "5"}, "Select a valid choice"),
        ({"variant": "classic", "players": "1"}, "Select a valid choice"),
        ({"variant": "classic", "players": "3", "target": "301"}, "Classic is played to 1000."),
        ({"variant": "palaristi", "players": "3"}, "Palaristi is played by four players."),
        ({"variant": "palaristi", "target": "1000"}, "Palaristi is played to 251"),
        ({"variant": "poker", "players": "3"}, "Select a valid choice"),
    ],
)
def test_a_room_with_a_game_that_does_not_fit_is_refused(owner_client, data, message):
    response = owner_client.post(reverse("games:room_create"), {**FORM, **data})

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Room.objects.exists()


def test_the_lobby_form_offers_both_games_and_the_players(owner_client):
    html = owner_client.get(reverse("lobby:rooms")).content.decode()

    assert 'name="variant" value="palaristi"' in html
    assert 'name="variant" value="classic"' in html
    assert 'data-variant-only="classic"' in html
    assert '<option value="1000">1000 (Classic)</option>' in html


def test_a_small_room_shows_its_seats_and_game(owner_client, owner):
    room = room_services.room_create(owner=owner, variant="classic", players=2)

    html = owner_client.get(reverse("games:room", args=[room.pk])).content.decode()

    assert html.count('class="room-seat ') == 2
    assert "Classic, 2 players, to 1000" in html
    assert 'id="room-seat-2"' not in html


def test_a_stranger_cannot_see_or_fill_a_classic_room(client, owner):
    room = room_services.room_create(owner=owner, variant="classic", players=3)
    client.force_login(make_user())

    page = client.get(reverse("games:room", args=[room.pk]))
    bot = client.post(reverse("games:room_seat_bot", args=[room.pk, 1]))

    assert page.status_code == bot.status_code == 404
    assert not room.seats.filter(is_bot=True).exists()


def test_a_seated_player_who_is_not_the_owner_cannot_add_a_computer(client, owner):
    room = room_services.room_create(owner=owner, variant="classic", players=3)
    guest = make_user()
    room_services.room_take_seat(room_id=room.pk, user=guest, token=room.invite_token)
    client.force_login(guest)

    response = client.post(
        reverse("games:room_seat_bot", args=[room.pk, 2]), HTTP_HX_REQUEST="true"
    )

    assert "Only the room&#x27;s owner can do that." in response.content.decode()
    assert not room.seats.filter(is_bot=True).exists()


def test_an_invitation_link_says_full_once_every_seat_is_taken(client, owner):
    room = room_services.room_create(owner=owner, variant="classic", players=2)
    room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=1)
    client.force_login(make_user())

    response = client.get(reverse("games:room_join", args=[room.invite_token]))

    assert response.context["full"] is True


def test_the_lobby_lists_a_classic_room_with_its_game_and_the_players_score(client, owner, queued):
    room = room_services.room_create(owner=owner, variant="classic", players=3)
    for seat in (1, 2):
        room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=seat)
    match = room_services.room_start(room_id=room.pk, user=owner)
    match.totals = [120, 300, 80]
    match.save(update_fields=["totals"])
    client.force_login(owner)

    html = client.get(reverse("lobby:rooms")).content.decode()

    assert "Classic, 3 players, to 1000" in html
    assert "Playing: 120–300" in html  # noqa: RUF001 (the score's en dash)


# The hand record and the replay of a classic round.


def played_classic_round(count: int, queued) -> tuple[Room, Round, list]:
    """Play one classic round of ``count`` players to its end: the first player takes, then
    each plays its first legal card."""
    from games.engine import Play, Take
    from games.selectors import round_state
    from games.services import table

    players = [make_user(NAMES[n]) for n in range(count)]
    room = room_services.room_create(owner=players[0], variant="classic", players=count)
    for seat, player in enumerate(players[1:], start=1):
        room_services.room_take_seat(
            room_id=room.pk, user=player, seat=seat, token=room.invite_token
        )
    room_services.room_start(room_id=room.pk, user=players[0])
    round_ = Round.objects.get(match__room=room, number=1)
    while True:
        round_.refresh_from_db()
        if round_.status != Round.Status.PLAYING:
            break
        state = round_state(round_)
        to_act = state.to_act
        assert to_act is not None
        legal = state.legal_actions()
        action = Take() if Take() in legal else next(a for a in legal if isinstance(a, Play))
        table.round_apply_action(
            round_id=round_.pk, seat=to_act, action=action, actor=players[to_act]
        )
    return room, round_, players


NAMES = ("Maria", "Petros", "Anna", "Yiannis")


@pytest.mark.parametrize("count", [2, 3, 4])
def test_a_classic_record_holds_the_turned_card_and_the_stock(client, queued, count):
    from games.engine import round_from_record
    from games.selectors import round_state

    room, round_, players = played_classic_round(count, queued)
    client.force_login(players[1])

    response = client.get(reverse("games:round_record", args=[room.pk, round_.number]))

    assert response.status_code == 200
    record = response.json()
    assert record["ruleset"]["variant"] == "classic"
    assert record["ruleset"]["players"] == count
    assert record["turned"] == round_.turned
    stock = record["stock"] if isinstance(record["stock"], str) else " ".join(record["stock"])
    assert stock.split() == round_.stock.split()
    assert [len(h.split() if isinstance(h, str) else h) for h in record["hands"]] == [5] * count
    assert round_from_record(record).result == round_state(round_).result


@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_replay_of_a_classic_round_shows_the_turned_card_and_the_completion(
    client, queued, count
):
    from games.selectors import round_state

    room, round_, players = played_classic_round(count, queued)
    state = round_state(round_)
    client.force_login(players[0])

    page = client.get(reverse("games:round_replay", args=[room.pk, round_.number])).text

    steps = re.findall(r'data-replay-step="(\d+)"', page)
    assert len(steps) == 1 + 1 + 1 + 8 + 1  # deal, taking, completion, tricks, score
    deal = page[page.index('id="step-1"') : page.index('id="step-2"')]
    assert f'data-card="{round_.turned}"' in deal
    assert len(re.findall(r'class="replay-hand-card[ "]', deal)) == 5 * count
    completion = page[page.index('id="step-3"') : page.index('id="step-4"')]
    assert "The completion of the deal" in completion
    assert len(re.findall(r'class="replay-hand-card[ "]', completion)) == 8 * count
    assert f"{NAMES[state.contract.seat]} takes" in completion
    score = page[page.index(f'id="step-{len(steps)}"') :]
    sides = 2 if count == 4 else count
    sheet = re.search(r'<tr class="replay-sheet">(.*?)</tr>', score, re.S).group(1)
    assert re.findall(r"<td>(-?\d+)</td>", sheet) == [str(n) for n in state.result.score]
    assert len(state.result.score) == sides
    # The unused cards of two players and the stock stay off the page.
    dealt_or_turned = {c for hand in state.hands for c in hand} | {state.turned}
    for card in set(state.ruleset.deck) - dealt_or_turned:
        assert f'data-card="{card}"' not in page
