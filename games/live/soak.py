"""A bounded soak of the live table on real processes, measuring what players would notice.

Two daphne servers and one Celery worker (a forked pool, as in production, with beat) run on
the PostgreSQL database and the Redis of ``DATABASE_URL`` and ``REDIS_URL``; a third daphne
server holds only the sockets of an idle table, since a quiet socket on a quiet server is the
first a channel layer loses. Scripted players sit at tables mixed with computer seats (easy,
medium and strong), some with a turn clock, and play over real table sockets: each one acts
when its own view says it is its turn, picks a legal action from the engine, and sends it as
the browser's buttons do. Meanwhile a daphne server or the worker is killed (SIGKILL) and
started again at intervals; players on a killed server reconnect to the other one, except the
player alone with computers, who stays away for a while as someone whose page died might.

The figures, from the action log (see ``games.live.audit`` for when a turn is due) and from
the sockets:

- rounds finished;
- actions lost: an action seen committed that later vanished from the log, or a turn due more
  than ``LATE_SECONDS`` before the end and never played (must be 0);
- late turns: turns applied more than ``LATE_SECONDS`` after they were due (must be 0);
- sockets dropped while idle: closes the script did not cause, on a server nobody killed
  (must be 0);
- table updates missed: a player found its turn in the database after several seconds
  without a message, while its own view still said otherwise (must be 0); and actions sent
  over an open socket that neither moved the table nor were refused (must be 0).

It stops by itself after the given time, kills what it started, and talks to 127.0.0.1 only.
"""

import argparse
import asyncio
import itertools
import json
import random
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connections
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from accounts.models import User
from games.engine import Action, Announce, Bid, Pass, Play, Show
from games.live.audit import Absence, Timing, audit_rooms, logged_actions, vanished
from games.live.client import (
    TableView,
    action_message,
    error_text,
    is_error,
    login_session,
    open_table,
)
from games.live.processes import CeleryWorkerProcess, DaphneProcess, SiteProcess, child_env
from games.models import Room, Round
from games.selectors import round_view

# The services the soak drives, imported by name in this one place.
from games.services.rooms import (
    match_rematch,
    room_create,
    room_fill_seat_with_bot,
    room_start,
    room_take_seat,
)

T = TypeVar("T")

LATE_SECONDS = 30.0
# No kill in the last stretch of the run, so that a turn a kill stalled is overdue by the end.
SETTLE_SECONDS = 45.0
# A player with no message for this long looks at the database, as a worried person reloads.
POLL_SECONDS = 5.0
# A turn that began this long ago should have reached every open socket: later, it is late.
LATE_UPDATE_SECONDS = 3.0
OBSERVE_SECONDS = 2.0
RECEIVE_SECONDS = 1.0
# Once in a while a player thinks for longer than the 5 s that used to close quiet sockets.
LONG_THINK = (6.0, 8.0)
LONG_THINK_CHANCE = 0.03
REMATCH_PAUSE = 1.0
# A player whose server is killed under them may stay away this long, and the computer
# should play for them once the disconnect grace (DISCONNECT_GRACE) is over.
LEAVE_SECONDS = 40.0
DISCONNECT_GRACE = 5.0
MAX_EVENTS = 200
# Seat 0 to 3: "h" a scripted player, "b" a computer; then the room's turn clock in seconds, and
# its computers' level: one table's strong searches run on the pool beside the others' moves.
# The player alone with computers is the one who stays away when their server dies.
LAYOUTS = (("hbbb", 0, "easy"), ("hbhb", 30, "medium"), ("hhhh", 0, "easy"), ("hhbb", 30, "strong"))
LEAVER_LAYOUT = "hbbb"
IDLE_LAYOUT = "hhhh"


def missed_after_seconds() -> float:
    """Return how long a turn may go unannounced before it counts as missed; the player reloads.

    A change whose announcement died with its process is announced by the next table sweep.
    """
    return settings.TABLE_SWEEP_SECONDS + LATE_UPDATE_SECONDS


@dataclass(frozen=True)
class SoakOptions:
    database_url: str
    redis_url: str
    seconds: float
    tables: int = 4
    seed: int = 1
    kills: bool = True
    kill_every: float = 15.0
    pacing: float = 0.3
    round_pause: float = 1.0
    think: float = 0.8
    keep: bool = False
    workdir: Path | None = None


@dataclass
class SoakReport:
    seconds: float
    tables: int
    seed: int
    rounds_finished: int = 0
    actions_logged: int = 0
    actions_vanished: int = 0
    turns_never_played: int = 0
    late_turns: int = 0
    worst_lateness: float = 0.0
    worst_turn: str = ""
    idle_drops: int = 0
    drop_codes: dict[str, int] = field(default_factory=dict)
    late_updates: int = 0
    missed_updates: int = 0
    unapplied_actions: int = 0
    closes_on_killed: int = 0
    reconnects: int = 0
    failed_connects: int = 0
    refused_connects: int = 0
    refused_actions: int = 0
    events: list[str] = field(default_factory=list)
    logs: str = ""

    @property
    def actions_lost(self) -> int:
        return self.actions_vanished + self.turns_never_played

    @property
    def clean(self) -> bool:
        """Say whether nothing a player would notice went wrong."""
        return not (
            self.actions_lost
            or self.late_turns
            or self.idle_drops
            or self.missed_updates
            or self.unapplied_actions
        )

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "actions_lost": self.actions_lost, "clean": self.clean}

    def lines(self) -> list[str]:
        codes = ", ".join(f"{code} x{count}" for code, count in sorted(self.drop_codes.items()))
        lines = [
            f"Soak of {self.seconds:.0f} s on {self.tables} tables and one idle table, "
            f"seed {self.seed}",
            f"  rounds finished:                {self.rounds_finished}",
            f"  actions logged:                 {self.actions_logged}",
            f"  actions lost:                   {self.actions_lost}"
            f"  ({self.actions_vanished} vanished after commit, "
            f"{self.turns_never_played} turns never played)",
            f"  turns applied > {LATE_SECONDS:.0f} s late:      {self.late_turns}"
            f"  (worst {self.worst_lateness:.1f} s after due"
            + (f": {self.worst_turn})" if self.worst_turn else ")"),
            f"  sockets dropped while idle:     {self.idle_drops}"
            + (f"  (close codes: {codes})" if codes else ""),
            f"  table updates late (> {LATE_UPDATE_SECONDS:.0f} s):     {self.late_updates}",
            f"  table updates missed (> {missed_after_seconds():.0f} s):   {self.missed_updates}",
            f"  actions sent with no effect:    {self.unapplied_actions}",
            f"  closes on killed servers:       {self.closes_on_killed}",
            f"  reconnections:                  {self.reconnects}",
            f"  failed connection attempts:     {self.failed_connects}"
            f"  (refused handshakes: {self.refused_connects})",
            f"  actions refused by the table:   {self.refused_actions}",
        ]
        lines += [f"  {event}" for event in self.events]
        lines.append(f"  process logs: {self.logs}")
        lines.append("  result: " + ("clean" if self.clean else "NOT clean"))
        return lines


@dataclass(frozen=True)
class Turn:
    """Where a room's game stands, as a player's script reads it."""

    match_over: bool
    round_id: int | None = None
    seq: int = 0
    to_act: int | None = None
    legal: tuple[Action, ...] = ()
    since: datetime | None = None


@dataclass
class Table:
    room_id: int
    layout: str
    turn_seconds: int
    playing: bool
    players: list["Player"] = field(default_factory=list)


def read_turn(room_id: int, round_pause: float) -> Turn:
    """Read whose turn it is in a room, the legal actions, and since when the turn runs."""
    round_ = (
        Round.objects.select_related("match__room")
        .filter(match__room_id=room_id)
        .order_by("-pk")
        .first()
    )
    if round_ is None or round_.status != Round.Status.PLAYING:
        return Turn(match_over=round_ is not None)
    view = round_view(round_)
    to_act = view.state.to_act
    return Turn(
        match_over=False,
        round_id=round_.pk,
        seq=view.seq,
        to_act=to_act,
        legal=tuple(view.state.legal_actions()) if to_act is not None else (),
        since=turn_began(round_, round_pause),
    )


def turn_began(round_: Round, round_pause: float) -> datetime:
    """When the turn now open began: the last action, or the deal and its pause."""
    last = round_.actions.order_by("-seq").values_list("created", flat=True).first()
    if last is not None:
        return last
    return round_.created + timedelta(seconds=round_pause if round_.number > 1 else 0)


def choose(legal: tuple[Action, ...], rng: random.Random) -> Action:
    """Pick a scripted player's action: mostly pass in the auction, a random card in play."""
    plays = [action for action in legal if isinstance(action, Play)]
    if plays:
        extras = [action for action in legal if isinstance(action, Announce | Show)]
        if extras and rng.random() < 0.5:
            return rng.choice(extras)
        return rng.choice(plays)
    bids = sorted((a for a in legal if isinstance(a, Bid)), key=lambda bid: bid.value)
    if bids and rng.random() < 0.3:
        return bids[0]
    if Pass() in legal:
        return Pass()
    return rng.choice(legal)


class Player:
    """A scripted person at a table, on one socket at a time."""

    def __init__(
        self,
        soak: "Soak",
        *,
        room_id: int,
        seat: int,
        user_id: int,
        session_key: str,
        owner: bool,
        preference: int,
        servers: list[DaphneProcess],
        leaves_on_kill: bool = False,
    ) -> None:
        self.soak = soak
        self.room_id = room_id
        self.seat = seat
        self.user_id = user_id
        self.session_key = session_key
        self.owner = owner
        self.rng = random.Random(f"{soak.options.seed}-{room_id}-{seat}")
        self.preference = preference
        self.servers = servers
        self.leaves_on_kill = leaves_on_kill
        self.returning: Absence | None = None
        self.view = TableView()
        self.sent: set[tuple[int, int]] = set()
        self.last_sent: tuple[int, int] | None = None
        self.missed: set[tuple[int, int]] = set()
        self.late: set[tuple[int, int]] = set()
        self.rematched: set[int] = set()
        self.connected = asyncio.Event()

    async def run(self) -> None:
        """Stay at the table until the soak closes: connect, play, reconnect after a close."""
        report = self.soak.report
        while not self.soak.closing:
            opened = await self.connect()
            if opened is None:
                return
            socket, server, incarnation = opened
            try:
                await self.play(socket)
            except ConnectionClosed as closed:
                if self.soak.closing:
                    return
                report.reconnects += 1
                if (server.port, incarnation) in self.soak.killed:
                    report.closes_on_killed += 1
                    if self.leaves_on_kill:
                        await self.stay_away()
                else:
                    code = str(closed.rcvd.code if closed.rcvd else 1006)
                    report.idle_drops += 1
                    report.drop_codes[code] = report.drop_codes.get(code, 0) + 1
                    self.soak.event(
                        f"socket of room {self.room_id} seat {self.seat} on {server.name} "
                        f"closed with {code}"
                    )
                self.preference += 1

    async def stay_away(self) -> None:
        """Leave the table for a while, as a person whose page died might; then come back.

        Meanwhile the computer should take the seat over once the disconnect grace is over.
        """
        absence = Absence(left=datetime.now(UTC))
        self.soak.absences.setdefault((self.room_id, self.seat), []).append(absence)
        self.soak.event(f"room {self.room_id} seat {self.seat}: the player leaves for a while")
        back = time.monotonic() + LEAVE_SECONDS
        while time.monotonic() < back and not self.soak.closing:
            await asyncio.sleep(RECEIVE_SECONDS)
        self.returning = absence

    async def connect(self) -> tuple[ClientConnection, DaphneProcess, int] | None:
        """Open the table on a server, the other one first after a close; retry until open."""
        for attempt in itertools.count():
            if self.soak.closing:
                return None
            server = self.servers[(self.preference + attempt) % len(self.servers)]
            incarnation = server.incarnation
            try:
                socket = await open_table(
                    port=server.port, room_id=self.room_id, session_key=self.session_key
                )
            except InvalidStatus as refused:
                self.soak.report.refused_connects += 1
                self.soak.event(f"{server.name} refused a table socket: {refused}")
            except (OSError, InvalidHandshake, TimeoutError):
                self.soak.report.failed_connects += 1
            else:
                self.sent.clear()
                self.view = TableView()
                if self.returning is not None:
                    self.returning.back = datetime.now(UTC)
                    self.returning = None
                return socket, server, incarnation
            await asyncio.sleep(0.2 * min(attempt + 1, 5))
        return None

    async def play(self, socket: ClientConnection) -> None:
        """Read the table; act when the view says so, or when the table stays quiet too long."""
        quiet_since = time.monotonic()
        while not self.soak.closing:
            try:
                fragment = await asyncio.wait_for(socket.recv(decode=True), RECEIVE_SECONDS)
            except TimeoutError:
                if time.monotonic() - quiet_since >= POLL_SECONDS:
                    quiet_since = time.monotonic()
                    await self.consider(socket, polled=True)
                continue
            quiet_since = time.monotonic()
            # The table's first view comes once the server has counted this connection.
            self.connected.set()
            if is_error(fragment):
                self.refused(fragment)
                continue
            self.view.apply(fragment)
            if self.view.my_turn or (self.owner and self.view.summary):
                await self.consider(socket, polled=False)
        await socket.close()

    def refused(self, fragment: str) -> None:
        """The table refused this player's last action: note why, and allow another try."""
        self.soak.report.refused_actions += 1
        text = error_text(fragment)
        self.soak.event(f"room {self.room_id} seat {self.seat}: action refused: {text}")
        if self.last_sent is not None:
            self.sent.discard(self.last_sent)

    async def consider(self, socket: ClientConnection, *, polled: bool) -> None:
        """Act if it is this player's turn; the owner starts the next match once one ends."""
        if not self.soak.acting:
            return
        turn = await self.soak.db(read_turn, self.room_id, self.soak.options.round_pause)
        if turn.match_over:
            await self.rematch()
            return
        if turn.to_act != self.seat or turn.round_id is None:
            return
        key = (turn.round_id, turn.seq)
        if key in self.sent:
            if not polled:
                return
            # Sent over an open socket, and still the turn after a quiet while: it vanished.
            self.soak.report.unapplied_actions += 1
            self.soak.event(f"room {self.room_id} seat {self.seat}: an action sent had no effect")
        elif polled and not self.view.my_turn and key not in self.missed and turn.since:
            waited = (datetime.now(UTC) - turn.since).total_seconds()
            if waited <= missed_after_seconds():
                if waited > LATE_UPDATE_SECONDS and key not in self.late:
                    self.late.add(key)
                    self.soak.report.late_updates += 1
                    self.soak.event(
                        f"room {self.room_id} seat {self.seat}: no update of its turn yet "
                        f"after {waited:.1f} s"
                    )
                return  # a person waits a little before reloading: the update may yet come
            self.missed.add(key)
            self.soak.report.missed_updates += 1
            self.soak.event(
                f"room {self.room_id} seat {self.seat}: no update of its turn after {waited:.1f} s"
            )
        await asyncio.sleep(self.think_seconds())
        if not self.soak.acting:
            return
        self.sent.add(key)
        self.last_sent = key
        await socket.send(json.dumps(action_message(choose(turn.legal, self.rng))))

    def think_seconds(self) -> float:
        if self.rng.random() < LONG_THINK_CHANCE:
            return self.rng.uniform(*LONG_THINK)
        return self.rng.uniform(0.05, self.soak.options.think)

    async def rematch(self) -> None:
        if not self.owner:
            return
        await asyncio.sleep(REMATCH_PAUSE)
        await self.soak.db(self.start_next_match)

    def start_next_match(self) -> None:
        room = Room.objects.get(pk=self.room_id)
        last = room.matches.order_by("-pk").values_list("pk", flat=True).first()
        if last is None or last in self.rematched or room.status != Room.Status.FINISHED:
            return
        self.rematched.add(last)
        match_rematch(room_id=self.room_id, user=User.objects.get(pk=self.user_id))


class Soak:
    """One soak run: its processes, its tables and players, and the report."""

    def __init__(self, options: SoakOptions) -> None:
        self.options = options
        self.report = SoakReport(seconds=options.seconds, tables=options.tables, seed=options.seed)
        self.run_id = uuid.uuid4().hex[:8]
        self.workdir = options.workdir or Path(tempfile.mkdtemp(prefix="pilotta-soak-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.report.logs = str(self.workdir)
        env = child_env(
            database_url=options.database_url,
            redis_url=options.redis_url,
            extra={
                "BOT_PACING_SECONDS": str(options.pacing),
                "ROUND_PAUSE_SECONDS": str(options.round_pause),
                "DISCONNECT_GRACE_SECONDS": str(DISCONNECT_GRACE),
            },
        )
        self.servers = [
            DaphneProcess(env=env, output=self.workdir / f"daphne-{n}.log") for n in (1, 2)
        ]
        # The idle table's sockets only: a server with no traffic at all, where a socket
        # closed by a quiet channel layer shows at once (the busy ones hide it).
        self.quiet_server = DaphneProcess(env=env, output=self.workdir / "daphne-quiet.log")
        self.worker = CeleryWorkerProcess(
            env=env,
            hostname=f"soak-{self.run_id}@pilotta",
            beat=True,
            purge=True,
            # Forked pool processes, as production's workers run (README).
            pool="prefork",
            output=self.workdir / "worker.log",
        )
        self.tables: list[Table] = []
        self.users: list[int] = []
        self.sessions: list[str] = []
        self.killed: set[tuple[int, int]] = set()
        # When each player was away, by room and seat.
        self.absences: dict[tuple[int, int], list[Absence]] = {}
        self.timing = Timing(
            pacing=options.pacing,
            round_pause=options.round_pause,
            grace=DISCONNECT_GRACE,
            late_seconds=LATE_SECONDS,
        )
        self.acting = True
        self.closing = False
        self.observed: dict[int, tuple[Any, ...]] = {}
        self.t0 = self.started = time.monotonic()
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="soak-db")
        self._events_lock = threading.Lock()

    # Running.

    def run(self) -> SoakReport:
        """Start everything, play for the given time, measure, and stop everything."""
        try:
            self.start_processes()
            self.create_tables()
            asyncio.run(self.play())
            self.stop_processes()
            self.check_vanished()
        finally:
            self.stop_processes()
            self._db.submit(connections.close_all).result()
            self._db.shutdown()
            if not self.options.keep:
                self.remove_data()
            connections.close_all()
        return self.report

    def start_processes(self) -> None:
        self.event("starting three daphne servers (one for idle sockets) and a worker with beat")
        processes: list[SiteProcess] = [*self.servers, self.quiet_server, self.worker]
        with ThreadPoolExecutor(max_workers=len(processes)) as starting:
            futures = [starting.submit(process.start) for process in processes]
            for future in futures:
                future.result()
        self.event("ready: " + ", ".join(p.name for p in processes))

    def stop_processes(self) -> None:
        for process in [*self.servers, self.quiet_server, self.worker]:
            process.stop()

    async def play(self) -> None:
        players = [player for table in self.tables for player in table.players]
        running = [asyncio.create_task(player.run()) for player in players]
        await asyncio.wait_for(asyncio.gather(*(player.connected.wait() for player in players)), 60)
        for table in self.tables:
            if table.playing:
                owner = table.players[0]
                await self.db(self.start_match, table.room_id, owner.user_id)
        self.started = time.monotonic()
        self.event(f"{len(players)} players connected; the matches started")
        deadline = self.started + self.options.seconds
        helpers = [asyncio.create_task(self.observe_forever())]
        if self.options.kills:
            helpers.append(asyncio.create_task(self.chaos(deadline - SETTLE_SECONDS)))
        await asyncio.sleep(max(deadline - time.monotonic(), 0))
        self.acting = False
        self.event("time is up: the players stop acting; measuring")
        await self.db(self.measure, datetime.now(UTC))
        self.closing = True
        await asyncio.gather(*running)
        for helper in helpers:
            helper.cancel()
        for outcome in await asyncio.gather(*helpers, return_exceptions=True):
            # A server or worker that did not come back is a finding, not a figure.
            if isinstance(outcome, Exception):
                raise outcome

    async def db(self, function: Callable[..., T], *args: Any) -> T:
        """Run database work in the soak's one database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, partial(function, *args))

    def event(self, text: str) -> None:
        """Note what happened when, for the report (the first ``MAX_EVENTS`` only)."""
        with self._events_lock:
            if len(self.report.events) < MAX_EVENTS:
                self.report.events.append(f"{time.monotonic() - self.t0:7.1f} s  {text}")

    # Killing and restarting.

    async def chaos(self, stop_at: float) -> None:
        """Kill a server, the worker, the other server, the worker... and start each again."""
        order = itertools.cycle([self.servers[0], self.worker, self.servers[1], self.worker])
        next_kill = self.started + self.options.kill_every
        while next_kill <= stop_at:
            await asyncio.sleep(max(next_kill - time.monotonic(), 0))
            await asyncio.to_thread(self.kill_and_restart, next(order))
            next_kill += self.options.kill_every

    def kill_and_restart(self, process: SiteProcess) -> None:
        if isinstance(process, DaphneProcess):
            self.killed.add((process.port, process.incarnation))
        process.kill()
        self.event(f"killed {process.name} (SIGKILL)")
        began = time.monotonic()
        process.start()
        self.event(f"{process.name} answers again after {time.monotonic() - began:.1f} s")

    # Tables.

    def create_tables(self) -> None:
        layouts = [LAYOUTS[index % len(LAYOUTS)] for index in range(self.options.tables)]
        for layout, clock, level in layouts:
            self.tables.append(self.create_table(layout, clock, level, playing=True))
        self.tables.append(self.create_table(IDLE_LAYOUT, 0, "easy", playing=False))

    def create_table(self, layout: str, clock: int, level: str, *, playing: bool) -> Table:
        users = {seat: self.create_user() for seat, kind in enumerate(layout) if kind == "h"}
        owner = users[0]
        room = room_create(owner=owner, target=251, bot_level=level, turn_seconds=clock)
        for seat in range(1, 4):
            if seat in users:
                room_take_seat(
                    room_id=room.pk, user=users[seat], seat=seat, token=room.invite_token
                )
            else:
                room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=seat)
        table = Table(room_id=room.pk, layout=layout, turn_seconds=clock, playing=playing)
        for seat, user in users.items():
            key = login_session(user)
            self.sessions.append(key)
            table.players.append(
                Player(
                    self,
                    room_id=room.pk,
                    seat=seat,
                    user_id=user.pk,
                    session_key=key,
                    owner=seat == 0,
                    preference=len(self.sessions),
                    servers=self.servers if playing else [self.quiet_server],
                    leaves_on_kill=playing and layout == LEAVER_LAYOUT,
                )
            )
        return table

    def create_user(self) -> User:
        number = len(self.users) + 1
        user = User.objects.create_user(
            email=f"soak-{self.run_id}-{number}@soak.invalid",
            display_name=f"Soak {number}",
            preferred_language="en",
        )
        self.users.append(user.pk)
        return user

    def start_match(self, room_id: int, owner_id: int) -> None:
        room_start(room_id=room_id, user=User.objects.get(pk=owner_id))

    def remove_data(self) -> None:
        Room.objects.filter(pk__in=[table.room_id for table in self.tables]).delete()
        User.objects.filter(pk__in=self.users).delete()
        Session.objects.filter(session_key__in=self.sessions).delete()

    # Measuring.

    def playing_rooms(self) -> list[int]:
        return [table.room_id for table in self.tables if table.playing]

    async def observe_forever(self) -> None:
        while True:
            await self.db(self.observe)
            await asyncio.sleep(OBSERVE_SECONDS)

    def observe(self) -> None:
        """Remember every action seen committed, to check at the end that it is still there."""
        latest = max(self.observed, default=0)
        self.observed.update(logged_actions(self.playing_rooms(), after=latest))

    def check_vanished(self) -> None:
        self.observe()
        self.report.actions_vanished = vanished(self.observed)
        self.report.actions_logged = len(self.observed)

    def measure(self, end: datetime) -> None:
        """Count finished rounds, late turns, and turns due long ago and never played."""
        audit = audit_rooms(
            self.playing_rooms(), timing=self.timing, absences=self.absences, end=end
        )
        self.report.rounds_finished = audit.rounds_finished
        self.report.late_turns = audit.late_turns
        self.report.worst_lateness = audit.worst_lateness
        self.report.worst_turn = audit.worst_turn
        self.report.turns_never_played = audit.never_played
        for note in audit.notes:
            self.event(note)


def parse_options(
    argv: list[str], *, database_url: str, redis_url: str
) -> tuple[SoakOptions, Path | None]:
    """Read the command line; return the options and where to write the figures as JSON."""
    parser = argparse.ArgumentParser(
        prog="python -m games.soak",
        description="Play scripted tables on real daphne servers and a Celery worker, "
        "kill them at intervals, and report what players would notice.",
    )
    parser.add_argument("--minutes", type=float, default=2.0, help="how long to play (2)")
    parser.add_argument("--tables", type=int, default=4, help="playing tables (4)")
    parser.add_argument(
        "--seed", type=int, default=1, help="the scripted players' choices and pauses (1)"
    )
    parser.add_argument("--no-kills", action="store_true", help="kill nothing")
    parser.add_argument("--kill-every", type=float, default=15.0, help="seconds between kills (15)")
    parser.add_argument(
        "--pacing", type=float, default=0.3, help="the computers' pause before a move (0.3)"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the users and rooms it made")
    parser.add_argument("--logs", type=Path, help="folder for the processes' output (a new one)")
    args = parser.parse_args(argv)
    if args.minutes <= 0 or args.tables < 1 or args.kill_every <= 0 or args.pacing < 0:
        parser.error("--minutes, --tables and --kill-every must be positive")
    options = SoakOptions(
        database_url=database_url,
        redis_url=redis_url,
        seconds=args.minutes * 60,
        tables=args.tables,
        seed=args.seed,
        kills=not args.no_kills,
        kill_every=args.kill_every,
        pacing=args.pacing,
        keep=args.keep,
        workdir=args.logs,
    )
    return options, args.json


def main(argv: list[str], *, database_url: str, redis_url: str) -> int:
    """Run a soak and print its figures; exit 0 only when nothing a player would notice failed."""
    options, json_path = parse_options(argv, database_url=database_url, redis_url=redis_url)
    report = Soak(options).run()
    print("\n".join(report.lines()), flush=True)
    if json_path is not None:
        json_path.write_text(json.dumps(report.as_dict(), indent=2))
    return 0 if report.clean else 1
