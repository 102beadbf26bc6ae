"""The arena: duplicate deals, and the figures it prints."""

from __future__ import annotations

import pytest

from games.ai.arena import confidence_interval, main, play_deal, run


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
