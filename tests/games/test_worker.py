"""A real `celery worker` process plays the computers' turns of a round, each turn once."""

import time

import pytest

from accounts.models import User
from games.engine import Action, Bid, Phase, Play
from games.models import Round, RoundAction
from games.selectors import round_state, round_view
from games.services import rooms as room_services
from games.services import table
from games.tasks import bot_play_turn
from tests.conftest import forget_tables
from tests.factories import bot_room, make_user
from tests.games.conftest import record_tasks

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

HUMAN = 0
WAIT_SECONDS = 90


@pytest.fixture
def celery_worker_env() -> dict[str, str]:
    # Computers answer at once, and the next round starts without the pause people need.
    return {"BOT_PACING_SECONDS": "0.01", "ROUND_PAUSE_SECONDS": "0"}


def human_action(round_: Round) -> tuple[int, Action] | None:
    """Return the human's action when it is their turn: open the auction, pass, or play."""
    view = round_view(round_)
    if view.state.to_act != HUMAN:
        return None
    legal = view.state.legal_actions()
    opening = [a for a in legal if isinstance(a, Bid)] if view.state.high_bid is None else []
    plays = [a for a in legal if isinstance(a, Play)]
    return view.seq, (opening or plays or legal)[0]


def play_the_round(round_id: int, human: User) -> Round:
    """Act for the human until the worker has played the computers to the end of the round."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        round_ = Round.objects.select_related("match__room").get(pk=round_id)
        if round_.status != Round.Status.PLAYING:
            return round_
        if (turn := human_action(round_)) is not None:
            seq, action = turn
            table.round_apply_action(
                round_id=round_id, seat=HUMAN, action=action, actor=human, expected_seq=seq
            )
        time.sleep(0.05)
    pytest.fail("the worker did not play the round to its end")


def test_the_worker_plays_every_computer_turn_of_a_round(celery_worker_process):
    owner = make_user("Human")
    room = bot_room(owner, bot_level="easy")
    room_services.room_start(room_id=room.pk, user=owner)
    first = Round.objects.get(match__room=room, number=1)

    round_ = play_the_round(first.pk, owner)

    log = list(RoundAction.objects.filter(round=round_).order_by("seq"))
    assert [entry.seq for entry in log] == list(range(len(log)))
    for entry in log:
        if entry.seat == HUMAN:
            assert (entry.actor_id, entry.is_bot) == (owner.pk, False)
        else:
            assert (entry.actor_id, entry.is_bot) == (None, True)
    state = round_state(round_)
    assert state.phase == Phase.FINISHED
    assert round_.status == Round.Status.FINISHED
    assert sum(len(trick.cards) for trick in state.tricks) == 32
    assert sum(entry.action["action"] == "play" for entry in log) == 32


def test_a_duplicated_task_is_played_once_by_the_worker(celery_worker_process):
    owner = make_user("Human")
    room = bot_room(owner, bot_level="easy")
    with pytest.MonkeyPatch.context() as patch:
        record_tasks(patch)
        room_services.room_start(room_id=room.pk, user=owner)
    # Seat 3 opens and the human follows, so one computer turn is all the worker may play.
    round_ = Round.objects.get(match__room=room, number=1)
    Round.objects.filter(pk=round_.pk).update(dealer=2)
    forget_tables()  # the round cached at its start had the other dealer

    bot_play_turn.apply_async(args=(round_.pk, 0))
    bot_play_turn.apply_async(args=(round_.pk, 0))

    wait_for_idle_queue()
    log = list(RoundAction.objects.filter(round=round_))
    assert [(a.seq, a.seat, a.is_bot) for a in log] == [(0, 3, True)]


def wait_for_idle_queue() -> None:
    """Wait until the worker has taken both messages and holds no task any more."""
    import redis
    from django.conf import settings

    from config.celery import app

    broker = redis.Redis.from_url(settings.REDIS_URL)
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        inspect = app.control.inspect(timeout=0.5)
        held = [*(inspect.active() or {}).values(), *(inspect.reserved() or {}).values()]
        if broker.llen("celery") == 0 and not any(held):
            return
        time.sleep(0.2)
    pytest.fail("the worker did not take its tasks")
