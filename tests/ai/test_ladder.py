"""The ladder: three matches on the same deals, the gap closed and its interval."""

from __future__ import annotations

import math

import pytest

from games.ai import strong
from games.ai.arena import deal_seeds, play_deal
from games.ai.ladder import DEFAULT_MATCHES, MATCHES, OPEN_HAND, gap_closed, main, run_ladder

# Figures repeat exactly when the strong bot stops at its sample cap, not at its time budget.
SAMPLES = 1
BUDGET = "30"


@pytest.fixture
def capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strong, "MAX_SAMPLES", SAMPLES)


def figures(printed: str) -> list[str]:
    """Return the printed lines that hold figures, not times."""
    return [line for line in printed.splitlines() if "ms" not in line and "wall" not in line]


@pytest.mark.usefixtures("capped")
def test_the_command_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--deals", "2", "--seed", "2", "--budget", BUDGET]) == 0
    printed = capsys.readouterr().out
    assert "2 duplicate deals (palaristi game, 4 players), seed 2" in printed
    assert "S - H" in printed
    assert "open - H" in printed
    assert "gap closed (S - H) / (open - H):" in printed
    assert "percentile bootstrap over deals" in printed
    assert "auction   (strong vs medium auction, strong cards)" in printed
    assert printed.count("(95% CI") == 4
    assert "S    play: p50" in printed
    assert "open play: p50" in printed
    assert "wall time" in printed


@pytest.mark.usefixtures("capped")
def test_the_same_seed_gives_the_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--deals", "2", "--seed", "5", "--budget", BUDGET]
    main(argv)
    first = figures(capsys.readouterr().out)
    main(argv)
    again = figures(capsys.readouterr().out)
    assert len(first) == 6
    assert first == again


@pytest.mark.usefixtures("capped")
def test_every_match_is_played_on_the_same_deals() -> None:
    ladder = run_ladder(2, 7, 30.0, 1)
    assert set(ladder.outcomes) == set(DEFAULT_MATCHES) == {"strong", "open", "auction"}
    for name in DEFAULT_MATCHES:
        a, b = MATCHES[name]
        for index, seed in enumerate(deal_seeds(7, 2)):
            alone = play_deal((a, b, seed, 30.0))
            assert ladder.outcomes[name][index].margins == alone.margins
    # The open-hand side's timings are its own: it played cards in its match.
    assert ladder.timings("open", "a").play
    assert MATCHES["open"][0] == OPEN_HAND


@pytest.mark.usefixtures("capped")
def test_one_match_alone_prints_its_figure_only(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--deals", "2", "--seed", "5", "--budget", BUDGET, "--match", "strong"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "S - H" in printed
    assert "open - H" not in printed
    assert "gap closed" not in printed
    assert printed.count("(95% CI") == 1
    ladder = run_ladder(2, 5, 30.0, 1, ["strong"])
    assert set(ladder.outcomes) == {"strong"}


def test_the_gap_is_the_ratio_of_the_means() -> None:
    ratio, low, high = gap_closed([1.0, 2.0, 3.0], [2.0, 4.0, 6.0], seed=1)
    assert ratio == pytest.approx(0.5)
    assert low == pytest.approx(0.5)
    assert high == pytest.approx(0.5)


def test_the_gaps_interval_brackets_it_and_repeats() -> None:
    part = [5.0, -3.0, 12.0, 0.0, 7.0, 2.0, 9.0, -1.0]
    whole = [10.0, 4.0, 20.0, 6.0, 8.0, 12.0, 15.0, 3.0]
    ratio, low, high = gap_closed(part, whole, seed=3)
    assert ratio == pytest.approx(sum(part) / sum(whole))
    assert low < ratio < high
    assert gap_closed(part, whole, seed=3) == (ratio, low, high)


def test_a_gap_of_nothing_has_no_ratio() -> None:
    ratio, low, high = gap_closed([1.0, 2.0], [0.0, 0.0], seed=1)
    assert math.isnan(ratio)
    assert math.isnan(low)
    assert math.isnan(high)
    with pytest.raises(ValueError, match="same deals"):
        gap_closed([1.0], [1.0, 2.0], seed=1)


@pytest.mark.usefixtures("capped")
def test_workers_play_the_same_deals_in_the_same_order() -> None:
    # The pool's processes take this process's sample cap, so the figures must agree.
    alone = run_ladder(2, 9, 30.0, 1)
    pooled = run_ladder(2, 9, 30.0, 2)
    for match in DEFAULT_MATCHES:
        assert pooled.margins(match) == alone.margins(match)


@pytest.mark.usefixtures("capped")
def test_open_handed_leads_are_measured_against_both_ends_of_the_gap(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--deals", "2", "--seed", "5", "--budget", BUDGET]
    parts = {
        "leads": "open-hand leads",
        "defence": "open-hand defence",
        "partner": "the partner's hand seen",
    }
    matches = ["--match", "strong", "--match", "open"]
    for part in parts:
        matches.extend(["--match", part])
    assert main([*argv, *matches]) == 0
    printed = capsys.readouterr().out
    for part, label in parts.items():
        assert f"{part} - H ({label} vs medium cards)" in printed
        assert f"{part} - S (paired, deal by deal)" in printed
        assert f"gap closed with {label}:" in printed
    assert main(argv) == 0
    printed = capsys.readouterr().out
    for part in parts:
        assert f"{part} - " not in printed  # none is one of the matches played by default
