"""The open-hand solvers: exact against plain minimax; the compiled one against the reference."""

from __future__ import annotations

import os
import random
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from games.ai import solver_jit
from games.ai.solver import Solver, move_values, remaining_points, solve
from games.ai.solver_jit import (
    NODES,
    CompiledSolver,
    SearchTimeout,
    _card_of,
    compile_solver,
    quick_bounds,
    shared_solver,
    solve_jit,
)
from games.engine.fast import PlayPosition, cards_of, legal, play, random_deal, side_of
from tests.ai.test_bots import printed_by_fresh_process


def minimax(pos: PlayPosition) -> int:
    """Return side 0's points from ``pos`` on by trying every line of play."""
    if pos.is_over:
        return pos.points[0]
    values = [minimax(play(pos, card)) for card in cards_of(legal(pos))]
    return max(values) if side_of(pos.to_act, pos.players) == 0 else min(values)


def endgame(rng: random.Random, cards_left: int) -> PlayPosition:
    """Return a position of random play with ``cards_left`` cards still to be played."""
    pos = PlayPosition.start(random_deal(rng), rng.randrange(4), rng.randrange(4))
    for _ in range(32 - cards_left):
        pos = play(pos, rng.choice(cards_of(legal(pos))))
    return pos


def from_scratch(pos: PlayPosition) -> PlayPosition:
    """Return the same position with the points of past tricks forgotten."""
    return pos._replace(points=(0, 0), tricks=(0, 0))


@pytest.mark.parametrize("cards_left", [6, 8, 10, 12])
def test_solvers_agree_with_minimax_on_small_endgames(cards_left: int) -> None:
    rng = random.Random(cards_left)
    for _ in range(15):
        pos = from_scratch(endgame(rng, cards_left))
        exact = minimax(pos)
        assert solve(pos)[0] == exact
        assert solve_jit(pos)[0] == exact


def test_points_add_up_to_what_is_left() -> None:
    pos = from_scratch(endgame(random.Random(5), 13))
    assert sum(solve(pos)) == remaining_points(pos) == sum(solve_jit(pos))


@pytest.mark.parametrize("cards_left", [13, 16, 19, 20])
def test_compiled_and_reference_solvers_agree_on_endgames(cards_left: int) -> None:
    rng = random.Random(100 + cards_left)
    for _ in range(10):
        pos = endgame(rng, cards_left)
        assert CompiledSolver().value(pos) == Solver(pos.trump).value(pos)


def test_compiled_and_reference_solvers_agree_on_full_deals() -> None:
    rng = random.Random(2024)
    for _ in range(1):
        pos = PlayPosition.start(random_deal(rng), rng.randrange(4), rng.randrange(4))
        assert solve_jit(pos) == solve(pos)


def test_move_values_agree() -> None:
    rng = random.Random(9)
    for _ in range(5):
        pos = endgame(rng, 15)
        assert shared_solver().move_values(pos) == move_values(pos)


def test_a_run_of_pointless_cards_is_searched_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Seat 0 holds the 7, 8 and 9 of suit 0 (not trumps), which nothing alive separates.
    rng = random.Random(8)
    pos = endgame(rng, 12)
    while not (pos.to_act == 0 and pos.trump != 0 and pos.hands[0] & 0b111 == 0b111):
        pos = endgame(rng, 12)
    solver = CompiledSolver()
    searches: list[PlayPosition] = []
    real_value = solver.value

    def counted_value(after: PlayPosition, *args: Any, **kwargs: Any) -> int:
        searches.append(after)
        return real_value(after, *args, **kwargs)

    monkeypatch.setattr(solver, "value", counted_value)
    values = solver.move_values(pos)
    assert values == move_values(pos)
    assert values[0] == values[1] == values[2]
    assert len(searches) == len(values) - 2


def test_a_card_alive_between_breaks_the_run() -> None:
    rng = random.Random(31)
    for _ in range(40):
        pos = endgame(rng, 14)
        assert CompiledSolver().move_values(pos) == move_values(pos)


def test_the_best_move_value_is_the_position_value() -> None:
    pos = endgame(random.Random(4), 14)
    values = shared_solver().move_values(pos)
    team = pos.to_act % 2
    total = remaining_points(pos)
    value_of_position = CompiledSolver().value(pos)
    team_value = value_of_position if team == 0 else total - value_of_position
    assert max(values.values()) == team_value


def test_a_search_in_small_slices_finds_the_same_values() -> None:
    rng = random.Random(31)
    sliced = CompiledSolver()
    sliced.slice_nodes = 7
    far = time.perf_counter() + 600
    for _ in range(4):
        pos = endgame(rng, 16)
        assert sliced.value(pos, deadline=far) == Solver(pos.trump).value(pos)
        assert sliced.move_values(pos, deadline=far) == move_values(pos)


def test_a_search_past_its_deadline_stops_and_leaves_the_table_sound() -> None:
    solver = CompiledSolver()
    solver.slice_nodes = 100
    pos = PlayPosition.start(random_deal(random.Random(12)), 1, 2)
    start = time.perf_counter()
    with pytest.raises(SearchTimeout):
        solver.move_values(pos, deadline=start)
    assert time.perf_counter() - start < 0.5
    assert solver.value(pos) == solve(pos)[0]


def test_a_guess_changes_the_probes_not_the_value() -> None:
    rng = random.Random(13)
    for _ in range(5):
        pos = endgame(rng, 16)
        exact = Solver(pos.trump).value(pos)
        for guess in (0, 40, 81, 162):
            assert CompiledSolver().value(pos, guess=guess) == exact


# Deep positions where narrowing the window to stored bounds once gave wrong values; the exact
# values come from a search without any table.
DEEP_CASES = [
    ((2197819648, 1409286178, 26816, 672662528), 2, 2, 47),
    ((2415935557, 1092878466, 714080768, 67111224), 2, 1, 51),
    ((2751856896, 302530720, 1090553408, 134297616), 1, 1, 57),
]


@pytest.mark.parametrize(("hands", "leader", "trump", "exact"), DEEP_CASES)
def test_stored_bounds_do_not_bend_the_value_of_deep_positions(
    hands: tuple[int, int, int, int], leader: int, trump: int, exact: int
) -> None:
    pos = PlayPosition(hands, (), leader, trump)
    assert CompiledSolver().value(pos) == exact
    assert CompiledSolver().bounded_value(pos, -1000, 1000) == exact
    assert Solver(trump).value(pos) == exact


# --- partner protection (the classic game of four) --------------------------------------------


def protected_endgame(rng: random.Random, cards_left: int) -> PlayPosition:
    """Return a position of random protected play with ``cards_left`` cards still to play."""
    pos = PlayPosition.start(random_deal(rng), rng.randrange(4), rng.randrange(4), protection=True)
    for _ in range(32 - cards_left):
        pos = play(pos, rng.choice(cards_of(legal(pos))))
    return pos


@pytest.mark.parametrize("cards_left", [6, 9, 12])
def test_protected_solvers_agree_with_minimax(cards_left: int) -> None:
    rng = random.Random(500 + cards_left)
    for _ in range(15):
        pos = from_scratch(protected_endgame(rng, cards_left))
        exact = minimax(pos)  # legal() honours the position's protection
        assert solve(pos)[0] == exact
        assert solve_jit(pos)[0] == exact


def test_protected_compiled_and_reference_solvers_agree_on_endgames() -> None:
    rng = random.Random(77)
    for _ in range(10):
        pos = protected_endgame(rng, 17)
        assert CompiledSolver().value(pos) == Solver(pos.trump, protection=True).value(pos)
        assert shared_solver().move_values(pos) == move_values(pos)


def test_protection_changes_values_and_the_shared_table_keeps_them_apart() -> None:
    rng = random.Random(78)
    differ = 0
    for _ in range(30):
        protected = from_scratch(protected_endgame(rng, 12))
        plain = protected._replace(protection=False)
        # The shared solver's table holds both games' entries side by side.
        assert solve_jit(protected) == solve(protected)
        assert solve_jit(plain) == solve(plain)
        assert solve_jit(protected) == solve(protected)
        differ += solve(protected) != solve(plain)
    assert differ > 0


# --- two and three players (the classic games of two and of three) ---------------------------
# With three players each plays for themself; the solver plays for seat 0 against the other two.


def small_table_deal(rng: random.Random, players: int) -> PlayPosition:
    """Return a classic game of two or three before the first card: 8 cards each from 9 up."""
    deck = [suit * 8 + rank for suit in range(4) for rank in range(2, 8)]
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[8 * seat : 8 * seat + 8]) for seat in range(players)]
    return PlayPosition.start(hands, rng.randrange(players), rng.randrange(4), players=players)


def small_table_endgame(rng: random.Random, players: int, cards_left: int) -> PlayPosition:
    pos = small_table_deal(rng, players)
    for _ in range(8 * players - cards_left):
        pos = play(pos, rng.choice(cards_of(legal(pos))))
    return pos


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("cards_left", [4, 5, 8, 11, 12])
def test_small_table_solvers_agree_with_minimax(players: int, cards_left: int) -> None:
    rng = random.Random(900 + 10 * players + cards_left)
    for _ in range(15):
        pos = from_scratch(small_table_endgame(rng, players, cards_left))
        exact = minimax(pos)
        assert solve(pos)[0] == exact
        assert solve_jit(pos)[0] == exact


@pytest.mark.parametrize("players", [2, 3])
def test_small_table_solvers_agree_on_whole_deals(players: int) -> None:
    rng = random.Random(900 + players)
    for _ in range(8):
        pos = small_table_deal(rng, players)
        assert solve_jit(pos) == solve(pos)
        assert shared_solver().move_values(pos) == move_values(pos)
        assert sum(solve(pos)) == remaining_points(pos)
        if players == 3:
            assert remaining_points(pos) == 162  # the 24 cards and the last trick


def test_with_three_players_seat_0_plays_against_the_other_two() -> None:
    hearts, spades = 2, 3
    seven, eight, nine, ten, king, ace = 0, 1, 2, 3, 6, 7

    def card(suit: int, rank: int) -> int:
        return 8 * suit + rank

    hands = [
        1 << card(hearts, king) | 1 << card(spades, eight),
        1 << card(hearts, ten) | 1 << card(spades, seven),
        1 << card(hearts, ace) | 1 << card(hearts, nine),
    ]
    pos = play(PlayPosition.start(hands, 1, 0, players=3), card(hearts, ten))
    # Seat 2 may duck under its neighbour's ten, or take it with the ace and win the last trick
    # with its nine, seat 0 holding no heart by then. Ducking leaves seat 0 the last trick with
    # its eight of spades (21 of the 35 points): seat 2 counts seat 1's tricks as its own.
    assert move_values(pos) == {card(hearts, nine): 14, card(hearts, ace): 35}
    assert shared_solver().move_values(pos) == move_values(pos)
    assert solve(pos) == solve_jit(pos) == (0, 35)


def test_a_position_is_for_four_seats_or_two_or_three() -> None:
    with pytest.raises(ValueError, match="four seats, or two or three"):
        PlayPosition.start([0, 0, 0, 0, 0], 0, 0, players=5)
    with pytest.raises(ValueError, match="four seats, or two or three"):
        PlayPosition.start([0, 0], 0, 0, players=2, protection=True)
    with pytest.raises(ValueError, match="four seats, or two or three"):
        PlayPosition.start([0, 0, 0], 0, 0, players=3, protection=True)
    with pytest.raises(ValueError, match="a hand for each seat"):
        PlayPosition.start([0, 0], 0, 0, players=3)


def test_the_card_of_a_one_card_mask_is_found_for_every_card() -> None:
    assert [_card_of(1 << card) for card in range(32)] == list(range(32))


def test_each_table_entry_fills_one_cache_line() -> None:
    table = CompiledSolver().table
    assert table.shape[1] * table.itemsize == 64
    assert table.ctypes.data % 64 == 0
    assert not table.any()


# --- bounds found without searching -----------------------------------------------------------

CLUBS, HEARTS, SPADES = 0, 2, 3
SEVEN, EIGHT, NINE, TEN, JACK, KING, ACE = 0, 1, 2, 3, 4, 6, 7


def cards(*pairs: tuple[int, int]) -> int:
    """Return the mask of (suit, rank) cards."""
    return sum(1 << (8 * suit + rank) for suit, rank in pairs)


def trick_start(rng: random.Random, kind: str, cards_left: int) -> PlayPosition:
    """Return a trick start of random play at a table of ``kind``, points so far forgotten."""
    if kind == "four":
        return from_scratch(endgame(rng, cards_left))
    if kind == "protected":
        return from_scratch(protected_endgame(rng, cards_left))
    players = 2 if kind == "two" else 3
    return from_scratch(small_table_endgame(rng, players, cards_left * players // 4))


@pytest.mark.parametrize("kind", ["four", "protected", "two", "three"])
def test_quick_bounds_hold_the_exact_value_of_every_trick_start(kind: str) -> None:
    rng = random.Random(len(kind))
    telling = 0
    for _ in range(60):
        pos = trick_start(rng, kind, rng.choice([8, 12, 16]))
        lower, upper = quick_bounds(pos)
        exact = solve(pos)[0]
        assert 0 <= lower <= exact <= upper <= remaining_points(pos)
        telling += lower > 0 or upper < remaining_points(pos)
    assert telling >= 20  # the bounds say something in most positions, not only the trivial


def test_the_side_on_lead_is_sure_of_the_top_trumps_it_holds() -> None:
    hands = (
        cards((SPADES, JACK), (SPADES, NINE), (HEARTS, SEVEN)),
        cards((SPADES, ACE), (HEARTS, EIGHT), (CLUBS, SEVEN)),
        cards((HEARTS, NINE), (CLUBS, EIGHT), (CLUBS, NINE)),
        cards((SPADES, TEN), (HEARTS, TEN), (CLUBS, TEN)),
    )
    pos = PlayPosition.start(hands, 0, SPADES)
    lower, upper = quick_bounds(pos)
    assert lower == 20 + 14  # the jack and the nine of trumps, each taking a trick
    assert lower <= solve(pos)[0] <= upper
    # Led by the other side, the two trumps above the ace still fall to side 0.
    assert quick_bounds(PlayPosition.start(hands, 1, SPADES))[0] == 34


def test_a_master_an_opponent_could_trump_is_not_counted() -> None:
    hands = (
        cards((HEARTS, ACE), (HEARTS, TEN)),
        cards((HEARTS, SEVEN), (SPADES, SEVEN)),
        cards((CLUBS, SEVEN), (CLUBS, EIGHT)),
        cards((HEARTS, EIGHT), (HEARTS, NINE)),
    )
    pos = PlayPosition.start(hands, 0, SPADES)
    # Seat 1 follows the ace with its last heart, then must trump the ten.
    assert quick_bounds(pos)[0] == 11 == solve(pos)[0]
    followed = (hands[0], cards((HEARTS, SEVEN), (HEARTS, KING)), hands[2], hands[3])
    pos = PlayPosition.start(followed, 0, SPADES)
    assert quick_bounds(pos) == (remaining_points(pos),) * 2  # every trick, the last one's 10


def test_a_trick_start_its_bounds_settle_is_not_searched() -> None:
    hands = (
        cards((SPADES, JACK), (SPADES, NINE)),
        cards((SPADES, ACE), (HEARTS, EIGHT)),
        cards((HEARTS, NINE), (CLUBS, EIGHT)),
        cards((SPADES, TEN), (HEARTS, TEN)),
    )
    pos = PlayPosition.start(hands, 0, SPADES)
    solver = CompiledSolver()
    assert solver.bounded_value(pos, 33, 34) >= 34
    assert solver.state[NODES] == 0
    assert solver.value(pos) == solve(pos)[0]


def test_a_round_played_out_has_nothing_left_to_bound() -> None:
    pos = PlayPosition((0, 0, 0, 0), (), 0, 0)
    assert quick_bounds(pos) == (0, 0)
    assert CompiledSolver().value(pos) == 0


def test_quick_bounds_are_for_trick_starts() -> None:
    pos = PlayPosition.start(random_deal(random.Random(3)), 0, 0)
    pos = play(pos, cards_of(legal(pos))[0])
    with pytest.raises(ValueError, match="trick starts"):
        quick_bounds(pos)


def test_compiling_the_solver_leaves_no_search_to_compile_on_a_first_move() -> None:
    # A fresh process, since this one's search has long been compiled by other tests.
    script = (
        "from games.ai import solver_jit as s\n"
        "s.compile_solver()\n"
        "print(all(f.signatures for f in (s._quick_bounds_of, s._start, s._search)))\n"
    )
    assert printed_by_fresh_process(script) == "True"


def test_the_warmed_solver_goes_to_the_first_thread_that_searches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The embedded worker warms up in a thread that never searches again.
    monkeypatch.setattr(solver_jit, "_spare", [])
    warming = threading.Thread(target=compile_solver)
    warming.start()
    warming.join()
    (warmed,) = solver_jit._spare
    taken: list[CompiledSolver] = []

    def first_search() -> None:
        taken.append(shared_solver())
        taken.append(shared_solver())

    for _ in range(2):
        thread = threading.Thread(target=first_search)
        thread.start()
        thread.join()

    assert taken[0] is warmed
    assert taken[1] is warmed  # the thread keeps it between moves
    assert taken[2] is not warmed  # a second thread makes its own
    assert solver_jit._spare == []


def test_threads_searching_at_once_each_get_their_own_values() -> None:
    # Searches with a deadline run in slices, between which another thread may search too.
    rng = random.Random(5)
    positions = [PlayPosition.start(random_deal(rng), rng.randrange(4), 0) for _ in range(12)]
    expected = [shared_solver().move_values(pos) for pos in positions]
    found: dict[int, dict[int, int]] = {}

    def search(indices: range) -> None:
        solver = shared_solver()
        solver.slice_nodes = 50
        for index in indices:
            found[index] = solver.move_values(positions[index], time.perf_counter() + 60)

    threads = [threading.Thread(target=search, args=(range(k, 12, 2),)) for k in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert [found[index] for index in range(12)] == expected


def numba_cache_without_writable_code_or_home(tmp_path: Path) -> Path:
    """Load the solver in a fresh process that can write neither beside the code nor at home.

    A read-only image run by a user without a home is imitated where this user may write
    everywhere: a file stands where numba would make its folders beside the code and in the
    user's cache. Return the folder numba was given, in the temporary folder ``tmp_path/tmp``.
    """
    games = Path(__file__).resolve().parents[2] / "games"
    shutil.copytree(games, tmp_path / "games", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "games" / "ai" / "__pycache__").write_text("")
    (tmp_path / "no-home").write_text("")
    (tmp_path / "tmp").mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env |= {"XDG_CACHE_HOME": str(tmp_path / "no-home"), "TMPDIR": str(tmp_path / "tmp")}
    script = (
        "import numba\n"
        "from games.ai import solver_jit\n"
        f"assert solver_jit.__file__.startswith({str(tmp_path)!r})\n"
        "print(numba.config.CACHE_DIR)\n"
    )
    return Path(printed_by_fresh_process(script, cwd=tmp_path, env=env))


def test_the_solver_loads_where_neither_the_code_nor_the_home_can_be_written(
    tmp_path: Path,
) -> None:
    # Numba refuses to cache there, and every strong computer would fail to load.
    cache = numba_cache_without_writable_code_or_home(tmp_path)

    assert cache == tmp_path / "tmp" / f"pilotta-numba-{os.getuid()}"
    assert cache.stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize("planted_as", ["folder others may write", "file", "link"])
def test_the_solver_passes_over_a_cache_folder_others_may_write(
    tmp_path: Path, planted_as: str
) -> None:
    # Numba loads the pickles it finds in its cache: another user's would run as this one.
    planted = tmp_path / "tmp" / f"pilotta-numba-{os.getuid()}"
    planted.parent.mkdir()
    if planted_as == "file":
        planted.write_text("")
    elif planted_as == "link":
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        planted.symlink_to(tmp_path / "elsewhere")
    else:
        planted.mkdir()
        planted.chmod(0o777)

    cache = numba_cache_without_writable_code_or_home(tmp_path)

    assert cache.parent == tmp_path / "tmp"
    assert cache.name.startswith("pilotta-numba-")
    assert cache != planted
    assert cache.stat().st_mode & 0o777 == 0o700
