"""Comparing the strong bot's settings: the same deals, the same opponent, paired figures."""

from __future__ import annotations

import pytest

from games.ai import strong
from games.ai.arena import deal_seeds, play_classic_deal, play_deal
from games.ai.compare import VARIANTS, applied, main, report, run_variants

# Figures repeat exactly when the strong bot stops at its sample cap, not at its time budget.
SAMPLES = 2
BUDGET = 30.0


@pytest.fixture
def capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strong, "MAX_SAMPLES", SAMPLES)


def test_settings_are_changed_for_the_block_only() -> None:
    before = strong.PLAY_READING
    with applied({"PLAY_READING": not before}):
        assert strong.PLAY_READING is not before
    assert strong.PLAY_READING is before


def test_settings_are_restored_when_the_block_fails() -> None:
    before = strong.AUCTION_READING
    with pytest.raises(RuntimeError), applied({"AUCTION_READING": not before}):
        raise RuntimeError("the run stopped")
    assert strong.AUCTION_READING is before


def test_an_unknown_setting_is_refused_and_nothing_changes() -> None:
    before = strong.PLAY_READING
    with (
        pytest.raises(ValueError, match="no setting"),
        applied({"PLAY_READING": not before, "NO_SUCH_SETTING": 1}),
    ):
        pass  # pragma: no cover
    assert strong.PLAY_READING is before


def test_every_variant_names_real_settings() -> None:
    for settings in VARIANTS.values():
        for name in settings:
            assert hasattr(strong, name)


@pytest.mark.usefixtures("capped")
def test_each_variant_plays_the_arenas_deals_with_its_settings() -> None:
    played = run_variants(["site", "no-play-reading"], "medium", 3, 4, BUDGET, 0)
    seeds = deal_seeds(4, 3)
    with applied({"PLAY_READING": False}):
        direct = [play_deal(("strong", "medium", s, BUDGET)).margins for s in seeds]
    assert [o.margins for o in played["no-play-reading"]] == direct
    site = [play_deal(("strong", "medium", s, BUDGET)).margins for s in seeds]
    assert [o.margins for o in played["site"]] == site


@pytest.mark.usefixtures("capped")
def test_variants_play_the_classic_game_at_the_table_asked() -> None:
    played = run_variants(["take-looser"], "medium", 2, 5, BUDGET, 0, players=3)
    with applied(VARIANTS["take-looser"]):
        direct = [
            play_classic_deal(("strong", "medium", s, BUDGET, 3)).margins for s in deal_seeds(5, 2)
        ]
    assert [o.margins for o in played["take-looser"]] == direct
    assert all(len(o.margins) == 3 for o in played["take-looser"])  # A in each of 3 seats
    printed = report(played, "medium", 5, BUDGET, players=3)
    assert "2 duplicate deals (classic game, 3 players), seed 5" in printed
    assert "points per deal" in printed
    assert "sheet points" not in printed


@pytest.mark.usefixtures("capped")
def test_a_variant_in_its_own_process_keeps_its_settings() -> None:
    in_process = run_variants(["no-play-reading"], "medium", 1, 6, BUDGET, 0)
    in_worker = run_variants(["no-play-reading"], "medium", 1, 6, BUDGET, 1)
    assert [o.margins for o in in_worker["no-play-reading"]] == [
        o.margins for o in in_process["no-play-reading"]
    ]


@pytest.mark.usefixtures("capped")
def test_the_same_settings_pair_to_zero_on_every_deal() -> None:
    site = "play-reading" if strong.PLAY_READING else "no-play-reading"
    played = run_variants(["site", site], "medium", 3, 2, BUDGET, 0)
    printed = report(played, "medium", 2, BUDGET)
    assert f"{site:<18} - site: +0.00" in printed
    assert "0 of 3 deals differ" in printed


@pytest.mark.usefixtures("capped")
def test_the_command_prints_each_figure(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--deals", "2", "--seed", "3", "--budget", str(BUDGET), "--workers", "0"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "2 duplicate deals (palaristi game, 4 players), seed 3" in printed
    assert "site               vs medium: " in printed
    assert "plain-sampling     - site: " in printed
    assert printed.count("(95% CI") == 3
    assert "site               play: p50" in printed
    assert "wall time" in printed


@pytest.mark.parametrize(
    "argv",
    [
        ["--variant", "site", "--variant", "site"],
        ["--variant", "no-such-variant"],
        ["--workers", "-1"],
        ["--deals", "0"],
        ["--players", "5"],
    ],
)
def test_bad_command_lines_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        main(argv)
    assert refused.value.code == 2
