"""Tuning the strong auction: candidates against the site's policy on the same deals."""

from __future__ import annotations

import pytest

from games.ai.arena import Player, deal_seeds, play_deal
from games.ai.strong import DEFAULT_POLICY, AuctionPolicy
from games.ai.tune_auction import CANDIDATES, candidates, changed, main, run_tuning


def test_each_candidate_changes_one_threshold() -> None:
    policies = candidates()
    assert len(policies) == sum(len(values) for values in CANDIDATES.values())
    for policy in policies:
        different = [
            name for name in CANDIDATES if getattr(policy, name) != getattr(DEFAULT_POLICY, name)
        ]
        assert len(different) == 1


def test_the_sites_policy_against_itself_is_even() -> None:
    site = Player("strong", "medium")
    outcome = play_deal((Player("strong", "medium", DEFAULT_POLICY), site, 3, None))
    assert outcome.margin == 0


def test_a_policy_that_closes_everything_plays_other_rounds() -> None:
    closer = Player("strong", "medium", AuctionPolicy(close_chance=1.0))
    margins = run_tuning([closer.policy or DEFAULT_POLICY], 12, 4, "medium", None, 1)
    assert len(margins) == 1
    assert len(margins[0]) == 12
    assert any(margins[0])


def test_against_another_auction_the_sites_policy_is_the_baseline() -> None:
    closer = AuctionPolicy(close_chance=1.0)
    margins = run_tuning([DEFAULT_POLICY, closer], 8, 4, "medium", None, 1, against="medium")
    assert margins[0] == [0.0] * 8
    assert any(margins[1])
    direct = [
        play_deal((Player("strong", "medium", closer), "medium", s, None)).margin
        for s in deal_seeds(4, 8)
    ]
    site = [
        play_deal((Player("strong", "medium"), "medium", s, None)).margin for s in deal_seeds(4, 8)
    ]
    assert margins[1] == [d - s for d, s in zip(direct, site, strict=True)]


def test_the_changed_threshold_is_named() -> None:
    assert changed(AuctionPolicy(close_chance=0.1)) == "close_chance 0.1 (site 0.3)"
    assert changed(DEFAULT_POLICY) == "the site's policy"


def test_command_line_prints_a_figure_per_candidate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--deals", "2", "--seed", "2", "--only", "bid_offset"]) == 0
    printed = capsys.readouterr().out
    assert printed.count("bid_offset") == len(CANDIDATES["bid_offset"])
    assert "95% CI" in printed
    assert "against the site's policy" in printed


def test_command_line_bids_against_another_auction(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--deals", "2", "--only", "close_chance", "--against", "medium"]) == 0
    printed = capsys.readouterr().out
    assert "against the medium auction" in printed
    assert printed.count("close_chance") == len(CANDIDATES["close_chance"])


def test_command_line_refuses_no_deals() -> None:
    with pytest.raises(SystemExit):
        main(["--deals", "0"])


def test_a_policy_belongs_to_the_strong_auction_only() -> None:
    with pytest.raises(ValueError, match="strong auction"):
        Player("medium", "medium", AuctionPolicy(close_chance=0.1))
