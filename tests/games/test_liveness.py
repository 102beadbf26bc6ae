"""Leases of live sockets: held while renewed, gone when released or lapsed."""

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
