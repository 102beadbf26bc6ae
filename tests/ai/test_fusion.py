"""The fusion measure: what choosing the next lead deal by deal adds to a lead's value."""

from __future__ import annotations

import pytest

from games.ai import strong
from games.ai.fusion import LeadFusion, deal_fusion, lead_fusion, main, report
from games.ai.postponed import LeadOutcome, PostponedLeads

TRICK = (1, 9, 17, 25)


@pytest.fixture(autouse=True)
def capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strong, "MAX_SAMPLES", 2)


def guessing_lead() -> PostponedLeads:
    """Return two candidates: 2 needs a guess on the next lead, 3 is safe."""
    guess = [
        LeadOutcome(TRICK, 10.0, {4: 10.0, 5: 0.0}),
        LeadOutcome(TRICK, 10.0, {4: 0.0, 5: 10.0}),
    ]
    return PostponedLeads([2, 3], {2: guess, 3: [LeadOutcome(TRICK, 8.0)] * 2})


def test_a_lead_needing_a_guess_shows_what_fusion_added_to_it() -> None:
    figures = lead_fusion(guessing_lead(), best=2, chosen=3)
    assert figures == LeadFusion(deals=2, fusion=5.0, changed=True, deals_per_trick=2.0)


def test_a_safe_lead_shows_no_fusion() -> None:
    figures = lead_fusion(guessing_lead(), best=3, chosen=3)
    assert figures == LeadFusion(deals=2, fusion=0.0, changed=False, deals_per_trick=None)


def test_a_lead_with_no_deal_measured_gives_no_figures() -> None:
    assert lead_fusion(PostponedLeads([2, 3], {2: [], 3: []}), best=2, chosen=None) is None


def test_the_report_counts_the_changed_choices() -> None:
    leads = [
        LeadFusion(10, 0.5, True, 2.0),
        LeadFusion(20, 0.0, False, None),
        LeadFusion(30, 0.0, False, 4.0),
    ]
    text = report(leads, deals=3, seed=1, coarse=False, defence=False)
    assert "leads measured: 3, the postponed choice differs at 1 (33.3%)" in text
    assert "+0.167" in text
    assert "median 20" in text
    assert "mean 3.0" in text
    assert "no lead measured" in report([], deals=1, seed=1, coarse=True, defence=True)


def test_a_deal_measures_leads_and_leaves_the_site_settings_as_they_were() -> None:
    leads = deal_fusion((3, 1.0, False, False))
    assert leads
    assert all(lead.deals >= 1 for lead in leads)
    assert strong.POSTPONED_LEADS is False
    assert strong.POSTPONED_WATCH is None


def test_the_command_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--deals", "1", "--seed", "3", "--coarse", "--defence"]) == 0
    out = capsys.readouterr().out
    assert "leads of the contract's side and the defence postponed a trick" in out
    assert "tricks told apart by their counting cards" in out
    assert "leads measured:" in out
