"""The table's read model: a snapshot in a fixed number of queries, drawn without any."""

import pytest
from django.db import IntegrityError

from games import snapshots
from games.engine import Action, Bid, Pass, Play
from games.errors import GameError
from games.models import Room, Round, RoundAction
from games.rendering import TableScreen, Viewer, render_table
from games.services import rooms as room_services
from games.services import table
from games.snapshots import snapshot_at_hand, snapshot_key, table_snapshot
from tests.factories import make_user, seated_room

pytestmark = pytest.mark.django_db


def play_steps(round_: Round, players, steps: int) -> None:
    """Open with 80, pass the auction out, then play the first legal cards."""
    for _ in range(steps):
        snapshot = table_snapshot(room_id=round_.match.room_id)
        assert snapshot is not None
        state = snapshot.state
        assert state is not None
        assert state.to_act is not None
        legal = state.legal_actions()
        action: Action
        if state.phase == "auction":
            action = (
                next(a for a in legal if isinstance(a, Bid)) if state.high_bid is None else Pass()
            )
        else:
            action = next(a for a in legal if isinstance(a, Play))
        seat = state.to_act
        table.round_apply_action(round_id=round_.pk, seat=seat, action=action, actor=players[seat])


@pytest.fixture
def started(players, queued):
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    return room, Round.objects.get(match__room=room)


def test_a_seating_snapshot_takes_three_queries(players, django_assert_num_queries):
    room = seated_room(players)

    with django_assert_num_queries(3):
        snapshot = table_snapshot(room_id=room.pk)

    assert snapshot.match_id is None
    assert [s.name for s in snapshot.seats] == ["Seat0", "Seat1", "Seat2", "Seat3"]


def test_a_table_snapshot_takes_five_queries_however_long_the_match(
    started, players, django_assert_num_queries
):
    room, round_ = started
    play_steps(round_, players, 20)

    with django_assert_num_queries(5):
        snapshot = table_snapshot(room_id=room.pk)

    assert snapshot.seq == 20
    assert snapshot.state.history[-1] is not None


def test_a_published_snapshot_is_read_without_the_database(started, django_assert_num_queries):
    room, _round = started
    published = table_snapshot(room_id=room.pk)

    with django_assert_num_queries(0):
        again = table_snapshot(room_id=room.pk, key=snapshot_key(published))

    assert again == published


def test_drawing_the_table_reads_no_database(started, players, django_assert_num_queries):
    room, round_ = started
    play_steps(round_, players, 6)
    snapshot = table_snapshot(room_id=room.pk)
    screen = TableScreen(user_id=players[1].pk, language="el")

    with django_assert_num_queries(0):
        render_table(snapshot, Viewer(players[2].pk, 2, False), language="fr", oob=False)
        screen.full(snapshot)


def test_a_screen_sends_only_the_regions_that_changed(started, players):
    room, round_ = started
    screens = {seat: TableScreen(user_id=players[seat].pk, language="en") for seat in range(4)}
    for screen in screens.values():
        assert 'id="table"' in screen.full(table_snapshot(room_id=room.pk))
    before = table_snapshot(room_id=room.pk).state
    bidder = before.to_act

    play_steps(round_, players, 1)
    snapshot = table_snapshot(room_id=room.pk)
    changes = {seat: screen.changes(snapshot) for seat, screen in screens.items()}

    for seat, html in changes.items():
        assert 'id="table"' not in html
        assert 'id="table-seats"' in html  # the turn moved on
        assert 'id="table-center"' in html  # the bid joined the auction
        assert 'id="table-score"' not in html
        assert ('id="table-controls"' in html) == (seat in (bidder, snapshot.state.to_act))


def test_an_old_snapshot_never_takes_the_screen_back(started, players):
    room, round_ = started
    screen = TableScreen(user_id=players[0].pk, language="en")
    old = table_snapshot(room_id=room.pk)
    play_steps(round_, players, 1)
    screen.full(table_snapshot(room_id=room.pk))

    assert screen.changes(old) == ""


def test_the_start_of_the_game_redraws_the_whole_table(players, queued):
    room = seated_room(players)
    screen = TableScreen(user_id=players[1].pk, language="en")
    assert 'id="table-seating"' in screen.full(table_snapshot(room_id=room.pk))

    room_services.room_start(room_id=room.pk, user=players[0])
    html = screen.changes(table_snapshot(room_id=room.pk))

    assert 'id="table"' in html
    assert 'id="table-hand"' in html


def test_a_seat_change_redraws_only_the_seating(players, queued):
    room = room_services.room_create(owner=players[0])
    screen = TableScreen(user_id=players[0].pk, language="en")
    screen.full(table_snapshot(room_id=room.pk))

    room_services.room_fill_seat_with_bot(room_id=room.pk, user=players[0], seat=2)
    html = screen.changes(table_snapshot(room_id=room.pk))

    assert 'id="table-seating"' in html
    assert 'id="table"' not in html
    assert "Andreas" in html  # each seat's computer has a name of its own
    assert "computer · medium" in html


def test_the_end_of_a_round_brings_its_summary(started, players):
    room, round_ = started
    screen = TableScreen(user_id=players[0].pk, language="en")
    screen.full(table_snapshot(room_id=room.pk))

    play_steps(round_, players, 4 + 32)
    html = screen.changes(table_snapshot(room_id=room.pk))

    assert 'id="table-score"' in html
    assert "Round 1" in html
    assert "On the score sheet" in html


def test_a_played_card_publishes_the_snapshot_a_fresh_read_would_give(
    started, players, monkeypatch, django_capture_on_commit_callbacks
):
    room, round_ = started
    published = []
    monkeypatch.setattr(
        "games.services.table.send_table_changed",
        lambda room_id, *, version, key: published.append(key),
    )
    table_snapshot(room_id=room.pk)  # what the start of the round published
    import games.snapshots

    build = games.snapshots._build_snapshot
    builds = []
    monkeypatch.setattr(
        games.snapshots, "_build_snapshot", lambda room_id: builds.append(room_id) or build(room_id)
    )
    for _ in range(6):
        builds.clear()
        with django_capture_on_commit_callbacks(execute=True):
            play_steps(round_, players, 1)
        assert len(builds) == 1  # play_steps reads the table; the publish derived its snapshot
        derived = table_snapshot(room_id=room.pk, key=published[-1])
        fresh = _build_fresh(room.pk)
        assert derived == fresh


def _build_fresh(room_id):
    from games.snapshots import _build_snapshot

    return _build_snapshot(room_id)


def test_a_players_move_finds_their_seat_and_round_under_the_lock(
    started, players, django_assert_num_queries
):
    """The seat comes from the locked seats, the round from the locked round: no query of
    their own before the move's transaction."""
    room, round_ = started
    state = table_snapshot(room_id=room.pk).state
    seat = state.to_act
    bid = next(a for a in state.legal_actions() if isinstance(a, Bid))

    # A savepoint, the round and the seats locked, the log, the room's version, the turn,
    # the savepoint's release.
    with django_assert_num_queries(7):
        applied = table.seat_apply_action(room_id=room.pk, user=players[seat], action=bid)

    assert applied.seq == 1
    assert list(round_.actions.values_list("seat", flat=True)) == [seat]


def test_a_move_from_someone_without_a_seat_is_refused(started, players):
    room, round_ = started
    outsider = make_user("Outsider")

    with pytest.raises(GameError) as refused:
        table.seat_apply_action(room_id=room.pk, user=outsider, action=Pass())

    assert refused.value.code == "not_seated"
    assert not round_.actions.exists()


def test_a_move_out_of_turn_is_refused(started, players):
    room, round_ = started
    waiting = (table_snapshot(room_id=room.pk).state.to_act + 1) % 4

    with pytest.raises(GameError) as refused:
        table.seat_apply_action(room_id=room.pk, user=players[waiting], action=Pass())

    assert refused.value.code == "not_your_turn"
    assert not round_.actions.exists()


def test_a_move_with_no_round_being_played_is_refused(started, players):
    room, round_ = started
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.FINISHED)

    with pytest.raises(GameError) as seated:
        table.seat_apply_action(room_id=room.pk, user=players[2], action=Pass())
    with pytest.raises(GameError) as outsider:
        table.seat_apply_action(room_id=room.pk, user=make_user("Outsider"), action=Pass())

    assert (seated.value.code, outsider.value.code) == ("no_round", "not_seated")
    assert not round_.actions.exists()


def test_a_snapshot_read_again_in_the_same_process_skips_the_cache(started, monkeypatch):
    """Each of a table's connections in one process reads the published snapshot: only the
    first pays for the shared cache's round trip and unpickling."""
    room, _round = started
    published = table_snapshot(room_id=room.pk)
    reads = []
    monkeypatch.setattr(snapshots.cache, "get", lambda *a, **k: reads.append(a) or None)

    again = table_snapshot(room_id=room.pk, key=snapshot_key(published))

    assert again == published
    assert reads == []


def test_a_snapshot_this_process_published_is_at_hand_without_any_read(started, monkeypatch):
    room, _round = started
    published = table_snapshot(room_id=room.pk)
    monkeypatch.setattr(snapshots.cache, "get", lambda *a, **k: pytest.fail("read the cache"))

    assert snapshot_at_hand(room_id=room.pk, key=snapshot_key(published)) == published


def test_a_snapshot_only_in_the_shared_cache_is_not_at_hand(started):
    """As when another process published it: the caller must read the shared cache."""
    room, _round = started
    published = table_snapshot(room_id=room.pk)
    snapshots.recent.clear()

    assert snapshot_at_hand(room_id=room.pk, key=snapshot_key(published)) is None
    assert table_snapshot(room_id=room.pk, key=snapshot_key(published)) == published


def test_another_rooms_snapshot_is_never_at_hand(started, players):
    room, _round = started
    published = table_snapshot(room_id=room.pk)

    assert snapshot_at_hand(room_id=room.pk + 1, key=snapshot_key(published)) is None


def test_a_snapshot_read_from_the_cache_brings_its_round_state(started, players, monkeypatch):
    """A process that draws a change another one published has the round's state at hand
    for the player's next move, without a second read of the shared cache."""
    room, round_ = started
    play_steps(round_, players, 3)
    published = table_snapshot(room_id=room.pk)
    snapshots.recent.clear()  # as in another process
    table_snapshot(room_id=room.pk, key=snapshot_key(published))
    reads = []
    monkeypatch.setattr(snapshots.cache, "get", lambda *a, **k: reads.append(a) or None)
    round_.refresh_from_db()

    state = snapshots.round_state_cached(round_)

    assert reads == []
    assert state.history == published.state.history


@pytest.mark.parametrize("service", ["seat_apply_action", "round_apply_action"])
def test_a_log_position_taken_first_refuses_the_move_as_stale(
    started, players, monkeypatch, service
):
    """The unique log position settles a race the lock did not: the move is refused, its
    transaction rolled back, and the table's version is left as it was."""
    room, round_ = started
    state = table_snapshot(room_id=room.pk).state
    seat = state.to_act
    version = Room.objects.get(pk=room.pk).version

    def taken(*args, **kwargs):
        raise IntegrityError("duplicate key value violates unique constraint")

    monkeypatch.setattr(RoundAction.objects, "bulk_create", taken)
    moves = {
        "seat_apply_action": lambda: table.seat_apply_action(
            room_id=room.pk, user=players[seat], action=Pass()
        ),
        "round_apply_action": lambda: table.round_apply_action(
            round_id=round_.pk, seat=seat, action=Pass(), actor=players[seat]
        ),
    }
    with pytest.raises(GameError) as refused:
        moves[service]()

    assert refused.value.code == "stale"
    assert Room.objects.get(pk=room.pk).version == version
    assert not round_.actions.exists()
