"""The table's read model: one snapshot per change, shared by every connection of a room.

A snapshot is everything the table shows, read with a fixed, small number of queries: the room,
its seats, the match and its score sheet, and the round being played rebuilt by the engine. It is
built once per change (by whoever made the change, right after commit) and kept in the cache
under the room's version; each connection then renders its own seat's view from it without
touching the database. The snapshot holds the whole round, hidden cards included: it never leaves
the server, and a view sees only ``observation(seat)`` of it.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from django.core.cache import cache

from games.engine import Contract, Observation, RoundState, action_from_dict
from games.engine.cards import side_count, side_of
from games.models import Match, Room, RoomSeat, Round, default_room_name
from games.selectors import dealt_round

SNAPSHOT_TTL_SECONDS = 600
# A room idle for longer is told of its version once more by the sweep, which is harmless.
ANNOUNCED_TTL_SECONDS = 24 * 3600
STATE_TTL_SECONDS = 3600
# How many published snapshots and rebuilt states a process keeps at hand (see ``Recent``).
RECENT_ENTRIES = 512


class Recent:
    """The last snapshots and states this process published or read, by their cache key.

    Every key names a value that never changes (a room's version, a round's log length), so a
    copy here can never be stale: it only spares the shared cache a round trip and an unpickling
    when the same process reads it again, as each of a table's connections in one process does,
    and as the process that published a change does when it draws it. The cache stays the one
    place every process reads from; nothing here is needed for the table to be right.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: str, value: Any) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


recent = Recent(RECENT_ENTRIES)


def _cache_get(key: str) -> Any:
    value = recent.get(key)
    if value is None:
        value = cache.get(key)
        if value is not None:
            recent.put(key, value)
    return value


def _cache_set(key: str, value: Any, timeout: int) -> None:
    cache.set(key, value, timeout)
    recent.put(key, value)


@dataclass(frozen=True)
class SeatView:
    """A chair as the table shows it; ``name`` is None for a computer or an empty seat."""

    seat: int
    user_id: int | None
    name: str | None
    is_bot: bool
    away: bool
    is_guest: bool = False

    @property
    def is_empty(self) -> bool:
        """Say whether nobody sits here."""
        return self.user_id is None and not self.is_bot


@dataclass(frozen=True)
class SheetLine:
    """One ended round on the score sheet."""

    number: int
    score: tuple[int, ...]
    cancelled: bool


@dataclass(frozen=True)
class EndedRound:
    """An ended round as its summary explains it."""

    number: int
    cancelled: bool
    result: dict[str, Any] | None
    contract: dict[str, Any] | None


@dataclass(frozen=True)
class TableSnapshot:
    """Everything the table shows at one version of a room."""

    version: int
    room_id: int
    room_created: float
    owner_id: int
    status: str
    target: int
    assist: bool
    seats: tuple[SeatView, ...]
    bot_level: str = "medium"
    # The game: "palaristi" (four players, two teams) or "classic" (2-4 players).
    variant: str = "palaristi"
    players: int = 4
    # The owner's chosen name ("" for none) and the owner's name, for ``title()``.
    name: str = ""
    owner_name: str = ""
    match_id: int | None = None
    match_finished: bool = False
    winner: int | None = None
    # By side: the two teams with four players, else each player.
    totals: tuple[int, ...] = (0, 0)
    sheet: tuple[SheetLine, ...] = ()
    round_id: int | None = None
    # When the round was dealt, which with its id names its states in the cache.
    round_created: float | None = None
    round_number: int | None = None
    state: RoundState | None = None
    summary: EndedRound | None = None

    def title(self) -> str:
        """Return the room's name in the active language, as Room.title does."""
        return self.name or default_room_name(self.owner_name)

    @property
    def is_classic(self) -> bool:
        """Say whether the room plays the classic, turned-up trump game."""
        return self.variant == "classic"

    @property
    def sides(self) -> int:
        """Return how many sides score: two teams with four players, else each player."""
        return side_count(self.players)

    def side_of(self, seat: int) -> int:
        """Return the side a seat plays for: its team with four players, else itself."""
        return side_of(seat, self.players)

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat ``user_id`` holds, or None."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def observation(self, seat: int | None) -> Observation | None:
        """Return what ``seat`` may see of the round (None: the public view)."""
        if self.state is None:
            return None
        return self.state.public_observation() if seat is None else self.state.observation(seat)

    @property
    def seq(self) -> int:
        """Return the length of the round's log."""
        return 0 if self.state is None else len(self.state.history)


def snapshot_key(snapshot: TableSnapshot) -> str:
    """Name a snapshot in the cache. The room's creation time makes the name unique even if
    the database is reset under a cache that remembers its ids."""
    return f"table:snapshot:{snapshot.room_id}:{snapshot.room_created}:{snapshot.version}"


def announced_key(*, room_id: int, room_created: float) -> str:
    """Name the cache entry holding the last version of a room its tables were told of."""
    return f"table:announced:{room_id}:{room_created}"


def mark_announced(snapshot: TableSnapshot) -> None:
    """Remember that the room's tables were told of ``snapshot``'s version."""
    key = announced_key(room_id=snapshot.room_id, room_created=snapshot.room_created)
    cache.set(key, snapshot.version, ANNOUNCED_TTL_SECONDS)


def announced_versions(rooms: list[tuple[int, float]]) -> dict[tuple[int, float], int]:
    """Return the last version each room's tables were told of, by (room id, creation time)."""
    keys = {announced_key(room_id=pk, room_created=created): (pk, created) for pk, created in rooms}
    return {keys[key]: version for key, version in cache.get_many(list(keys)).items()}


def _state_key(round_: Round, seq: int) -> str:
    return state_key(round_id=round_.pk, round_created=round_.created.timestamp(), seq=seq)


def state_key(*, round_id: int, round_created: float, seq: int) -> str:
    """Name a round's state after its first ``seq`` actions in the cache."""
    return f"table:state:{round_id}:{round_created}:{seq}"


def table_snapshot(*, room_id: int, key: str | None = None) -> TableSnapshot | None:
    """Return the room's snapshot published under ``key``, else a fresh one (None: no room).

    A fresh snapshot may be newer than the one asked for: the caller wanted at least that much.
    """
    if key is not None:
        published = _published(room_id, _cache_get(key))
        if published is not None:
            return published
    snapshot = _build_snapshot(room_id)
    if snapshot is not None:
        _cache_set(snapshot_key(snapshot), snapshot, SNAPSHOT_TTL_SECONDS)
    return snapshot


def snapshot_at_hand(*, room_id: int, key: str) -> TableSnapshot | None:
    """Return the room's snapshot published under ``key`` if this process holds it, else None.

    Reads neither the database nor the shared cache, so an event loop may call it: a change
    published by this process (a move on one of its sockets) is drawn without leaving it.
    """
    return _published(room_id, recent.get(key))


def _published(room_id: int, found: Any) -> TableSnapshot | None:
    if isinstance(found, TableSnapshot) and found.room_id == room_id:
        _remember_its_state(found)
        return found
    return None


def _remember_its_state(snapshot: TableSnapshot) -> None:
    """Keep the round's state that came with a snapshot at hand under its own key too: the
    player's next move in this process starts from it."""
    if snapshot.state is None or snapshot.round_id is None or snapshot.round_created is None:
        return
    key = state_key(
        round_id=snapshot.round_id, round_created=snapshot.round_created, seq=snapshot.seq
    )
    if recent.get(key) is None:
        recent.put(key, snapshot.state)


def derived_snapshot(
    *,
    room_id: int,
    room_created: float,
    version: int,
    round_id: int,
    state: RoundState,
    steps: int,
) -> TableSnapshot | None:
    """Return the snapshot after actions played within a round: the one before with the new
    state. None when the one before is not at hand, or is not the round's previous step."""
    previous = _cache_get(f"table:snapshot:{room_id}:{room_created}:{version - 1}")
    if not isinstance(previous, TableSnapshot) or previous.round_id != round_id:
        return None
    if previous.seq != len(state.history) - steps:
        return None
    # The summary of the round before stays until the auction has gone round once.
    summary = previous.summary if len(state.history) < previous.players else None
    snapshot = replace(previous, version=version, state=state, summary=summary)
    _cache_set(snapshot_key(snapshot), snapshot, SNAPSHOT_TTL_SECONDS)
    return snapshot


def _build_snapshot(room_id: int) -> TableSnapshot | None:
    room = Room.objects.filter(pk=room_id).select_related("owner").first()
    if room is None:
        return None
    seating = TableSnapshot(
        version=room.version,
        room_id=room.pk,
        room_created=room.created.timestamp(),
        owner_id=room.owner_id,
        status=room.status,
        target=room.target,
        assist=room.assist,
        seats=_seats(room),
        bot_level=room.bot_level,
        variant=room.variant,
        players=room.players,
        name=room.name,
        owner_name=room.owner.table_name,
    )
    match = Match.objects.filter(room=room).order_by("-created", "-pk").first()
    if match is None:
        return seating
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    current = rounds[-1] if rounds else None
    return replace(
        seating,
        match_id=match.pk,
        match_finished=match.status == Match.Status.FINISHED,
        winner=match.winner,
        totals=tuple(match.totals),
        sheet=tuple(
            _sheet_line(r, seating.sides) for r in rounds if r.status != Round.Status.PLAYING
        ),
        round_id=current.pk if current else None,
        round_created=current.created.timestamp() if current else None,
        round_number=current.number if current else None,
        state=round_state_cached(current, match.ruleset) if current else None,
        summary=_summary_round(rounds, seating.players),
    )


def _seats(room: Room) -> tuple[SeatView, ...]:
    chairs = RoomSeat.objects.filter(room=room).select_related("user").order_by("seat")
    return tuple(
        SeatView(
            seat=chair.seat,
            user_id=chair.user_id,
            name=str(chair.user.table_name) if chair.user is not None else None,
            is_bot=chair.is_bot,
            away=chair.away,
            is_guest=chair.user is not None and chair.user.is_guest,
        )
        for chair in chairs
    )


def _sheet_line(round_: Round, sides: int) -> SheetLine:
    score = (round_.result or {}).get("score", [0] * sides)
    return SheetLine(
        number=round_.number,
        score=tuple(score),
        cancelled=round_.status == Round.Status.CANCELLED,
    )


def _summary_round(rounds: list[Round], players: int) -> EndedRound | None:
    """Return the round whose summary shows: the last one if it ended, else the one before it.

    The summary stays up until the new round's auction has gone round the table once.
    """
    if not rounds:
        return None
    last = rounds[-1]
    if last.status != Round.Status.PLAYING:
        ended = last
    elif last.turn_seq < players and len(rounds) > 1:
        ended = rounds[-2]
    else:
        return None
    return EndedRound(
        number=ended.number,
        cancelled=ended.status == Round.Status.CANCELLED or ended.result is None,
        result=ended.result,
        contract=ended.contract,
    )


def round_state_cached(round_: Round, ruleset: dict[str, Any] | None = None) -> RoundState:
    """Return the round rebuilt from its log, from the cache when this log length was seen.

    A round's log only grows, so the state after its first ``seq`` actions never changes: the
    cache key (round, seq) can never hold a stale state.
    """
    if round_.status == Round.Status.PLAYING:
        cached = _cache_get(_state_key(round_, round_.turn_seq))
        if cached is not None:
            return cached  # type: ignore[no-any-return]
    state = dealt_round(round_, ruleset)
    for entry in round_.actions.order_by("seq").values_list("action", flat=True):
        seat, action = action_from_dict(entry)
        state = state.apply(seat, action)
    remember_round_state(round_, state)
    return state


def remember_round_state(round_: Round, state: RoundState) -> None:
    """Keep a rebuilt state for its log length, for the next reader."""
    _cache_set(_state_key(round_, len(state.history)), state, STATE_TTL_SECONDS)


def contract_json(contract: Contract | None) -> dict[str, Any] | None:
    """Write a contract for the round's summary."""
    if contract is None:
        return None
    return {
        "value": contract.value,
        "trump": str(contract.trump),
        "seat": contract.seat,
        "team": contract.team,
        "multiplier": contract.multiplier,
    }
