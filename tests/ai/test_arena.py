"""The arena: duplicate deals, and the figures it prints."""

from __future__ import annotations

import pytest

from games.ai.arena import (
    classic_round,
    confidence_interval,
    main,
    play_classic_deal,
    play_deal,
    run,
    side_margin,
)


def test_a_deal_between_identical_deterministic_bots_is_even() -> None:
    # The medium bot uses no dice: with the cards and dealer repeated, the swap cancels out.
    outcome = play_deal(("medium", "medium", 5, None))
    assert outcome.margins[0] == -outcome.margins[1]
    assert outcome.margin == 0


def test_run_is_reproducible() -> None:
    first = [o.margins for o in run("easy", "random", 4, 3, None, 1)]
    again = [o.margins for o in run("easy", "random", 4, 3, None, 1)]
    assert first == again


def test_confidence_interval_brackets_the_mean() -> None:
    mean, low, high = confidence_interval([1.0, 2.0, 3.0, 4.0])
    assert low < mean == 2.5 < high


def test_command_line_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--a", "medium", "--b", "random", "--deals", "3", "--seed", "2"]) == 0
    printed = capsys.readouterr().out
    assert "95% CI" in printed
    assert "bidding: p50" in printed


# --- the classic game -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_classic_deal_between_identical_deterministic_bots_is_even(players: int) -> None:
    # A in every seat (or on both teams) with the same cards: the margins cancel out.
    outcome = play_classic_deal(("medium", "medium", 5, None, players))
    assert len(outcome.margins) == (2 if players == 4 else players)
    assert outcome.margin == pytest.approx(0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_classic_deal_is_played_with_a_in_every_seat(players: int) -> None:
    outcome = play_classic_deal(("medium", "random", 8, None, players))
    # Every play has one A seat (or team) and B elsewhere: both bots acted.
    assert outcome.timings["a"].play
    assert outcome.timings["b"].play
    plays = len(outcome.margins)
    assert plays == (2 if players == 4 else players)


def test_side_margin_is_against_the_mean_of_the_other_sides() -> None:
    state = classic_round(3, 3)
    while state.to_act is not None:
        state = state.apply(state.to_act, state.legal_actions()[0])
    if state.result is None:
        assert side_margin(state, 0) == 0
        return
    score = state.result.score
    assert side_margin(state, 1) == score[1] - (score[0] + score[2]) / 2


def test_classic_run_is_reproducible() -> None:
    first = [o.margins for o in run("easy", "random", 3, 3, None, 1, variant="classic", players=3)]
    again = [o.margins for o in run("easy", "random", 3, 3, None, 1, variant="classic", players=3)]
    assert first == again


def test_the_palaristi_game_is_for_four() -> None:
    with pytest.raises(ValueError, match="four players"):
        run("easy", "random", 1, 1, None, 1, players=3)


@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_command_line_plays_the_classic_game(
    players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--a", "medium", "--b", "random", "--deals", "3", "--variant", "classic"]
    assert main([*argv, "--players", players]) == 0
    printed = capsys.readouterr().out
    assert f"classic game, {players} players" in printed
    assert "95% CI" in printed
    assert "play:    p50" in printed


def test_the_arena_measures_the_open_hand_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--a", "open", "--b", "medium", "--deals", "1", "--seed", "4"]) == 0
    printed = capsys.readouterr().out
    assert "A = open, B = medium" in printed
    assert "A    open play:    p50" in printed
