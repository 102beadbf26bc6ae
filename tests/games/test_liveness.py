"""Leases of live sockets: held while renewed, gone when released or lapsed."""

import asyncio
from datetime import timedelta

import time_machine
from django.utils import timezone

from games.liveness import alive_scopes, lease_release, lease_renew, table_scope, user_scope


def test_a_renewed_lease_keeps_its_scope_alive():
    lease_renew(scopes=["a", "b"], connection="one")

    assert alive_scopes(["a", "b", "c"]) == {"a", "b"}


def test_a_scope_lives_while_any_of_its_sockets_does():
    lease_renew(scopes=["seat"], connection="one")
    lease_renew(scopes=["seat"], connection="two")

    assert lease_release(scopes=["seat"], connection="one") == {"seat"}
    assert alive_scopes(["seat"]) == {"seat"}
    assert lease_release(scopes=["seat"], connection="two") == set()
    assert alive_scopes(["seat"]) == set()


def test_a_lease_nobody_renews_lapses(settings):
    settings.PRESENCE_TTL_SECONDS = 15
    lease_renew(scopes=["seat"], connection="killed-process")

    with time_machine.travel(timezone.now() + timedelta(seconds=14)):
        assert alive_scopes(["seat"]) == {"seat"}
    with time_machine.travel(timezone.now() + timedelta(seconds=16)):
        assert alive_scopes(["seat"]) == set()


def test_a_lapsed_lease_does_not_keep_a_live_one_company(settings):
    settings.PRESENCE_TTL_SECONDS = 15
    lease_renew(scopes=["seat"], connection="dead")
    with time_machine.travel(timezone.now() + timedelta(seconds=10)):
        lease_renew(scopes=["seat"], connection="live")
    with time_machine.travel(timezone.now() + timedelta(seconds=20)):
        assert lease_release(scopes=["seat"], connection="live") == set()


def test_releasing_an_unknown_lease_changes_nothing():
    lease_renew(scopes=["seat"], connection="one")

    assert lease_release(scopes=["seat"], connection="stranger") == {"seat"}


def test_scope_names_keep_tables_and_users_apart():
    assert len({table_scope(1, 2), table_scope(2, 1), user_scope(1), user_scope(2)}) == 4


class RecordingLayer:
    def __init__(self) -> None:
        self.joined: list[tuple[str, str]] = []

    async def group_add(self, group: str, channel: str) -> None:
        self.joined.append((group, channel))


async def test_a_live_socket_renews_its_lease_and_rejoins_its_groups(settings):
    from games.liveness import LeaseHeartbeat

    settings.PRESENCE_TTL_SECONDS = 0.3
    settings.GROUP_REJOIN_SECONDS = 0
    socket = LeaseHeartbeat()
    socket.channel_name = "specific.abc"
    socket.channel_layer = RecordingLayer()

    await socket.leases_take(["seat"], groups=("table-9",))
    await asyncio.sleep(0.6)
    alive_while_open = alive_scopes(["seat"])
    await socket.leases_give_up()

    assert alive_while_open == {"seat"}  # renewed past its first 0.3 s
    assert ("table-9", "specific.abc") in socket.channel_layer.joined
    assert alive_scopes(["seat"]) == set()
