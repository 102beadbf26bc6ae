"""The rooms' migrations keep existing rooms working, and tell finished rooms from open ones."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.factories import UserFactory

BEFORE = [("games", "0004_table_version_and_contract")]
AFTER = [("games", "0007_room_invite_created")]


@pytest.fixture
def migrate():
    """Migrate the games app to a point; bring it back to the latest migrations afterwards."""

    def to(targets):
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(targets)
        return executor.loader.project_state(targets).apps

    yield to
    to(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_rooms_whose_match_ended_become_finished_and_keep_working(migrate):
    old = migrate(BEFORE)
    owner = UserFactory()  # the accounts tables are not migrated back
    Room = old.get_model("games", "Room")
    Match = old.get_model("games", "Match")
    Room.objects.create(owner_id=owner.pk, invite_token="waiting")
    ended = Room.objects.create(owner_id=owner.pk, invite_token="ended")
    playing = Room.objects.create(owner_id=owner.pk, invite_token="playing", status="playing")
    for room, status in ((ended, "finished"), (playing, "playing")):
        Match.objects.create(room=room, ruleset={}, first_dealer=0, status=status)

    new = migrate(AFTER)

    rooms = {room.invite_token: room for room in new.get_model("games", "Room").objects.all()}
    assert {token: room.status for token, room in rooms.items()} == {
        "waiting": "open",
        "ended": "finished",
        "playing": "playing",
    }
    assert {room.name for room in rooms.values()} == {""}
    assert all(room.invite_created is not None for room in rooms.values())
