"""A guest plays a whole match against the computers, played by a real `celery worker`."""

import time

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games.engine import Bid, Play
from games.models import Match, Room, Round, RoundAction
from games.selectors import round_view
from games.services.table import round_apply_action

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

GUEST_SEAT = 0
WAIT_SECONDS = 300


@pytest.fixture
def celery_worker_env() -> dict[str, str]:
    # Computers answer at once, and the next round starts without the pause people need.
    return {"BOT_PACING_SECONDS": "0.01", "ROUND_PAUSE_SECONDS": "0"}


@pytest.fixture
def quick_table(settings) -> None:
    """The guest's own moves schedule the next computer here, in the test's process."""
    settings.BOT_PACING_SECONDS = 0.01
    settings.ROUND_PAUSE_SECONDS = 0
    settings.SIGNUP_MODE = "open"


def guest_move(round_: Round, guest: User) -> bool:
    """Act for the guest when it is their turn: open the auction, pass, or play a card."""
    view = round_view(round_)
    if view.state.to_act != GUEST_SEAT:
        return False
    legal = view.state.legal_actions()
    opening = [a for a in legal if isinstance(a, Bid)] if view.state.high_bid is None else []
    plays = [a for a in legal if isinstance(a, Play)]
    action = (opening or plays or legal)[0]
    round_apply_action(
        round_id=round_.pk, seat=GUEST_SEAT, action=action, actor=guest, expected_seq=view.seq
    )
    return True


def test_a_guest_starts_plays_and_finishes_a_match(celery_worker_process, quick_table):
    client = Client()
    with translation.override("en"):
        started = client.post(reverse("games:play_now"), {"level": "easy", "target": "251"})
    guest = User.objects.get(pk=client.session[SESSION_KEY])
    room = Room.objects.get(owner=guest)
    match = Match.objects.get(room=room)

    deadline = time.monotonic() + WAIT_SECONDS
    while Match.objects.get(pk=match.pk).status != Match.Status.FINISHED:
        assert time.monotonic() < deadline, "the match did not reach its end"
        playing = Round.objects.filter(match=match, status=Round.Status.PLAYING).first()
        if playing is None or not guest_move(playing, guest):
            time.sleep(0.05)

    match.refresh_from_db()
    assert started.status_code == 302
    assert max(match.totals) >= 251
    assert match.winner in (0, 1)
    played = RoundAction.objects.filter(round__match=match)
    assert played.filter(actor=guest, is_bot=False).exists()
    assert not played.exclude(seat=GUEST_SEAT).filter(is_bot=False).exists()
    with translation.override("en"):
        page = client.get(reverse("games:room", args=[room.pk]))
    assert "Sign up to keep your games" in page.text
    assert "Joining the waitlist keeps no game history." in page.text
