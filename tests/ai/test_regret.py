"""The regret measure: each decision's double-dummy regret, and its figures by kind."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games.ai import strong
from games.ai.ladder import STRONG
from games.ai.open_hand import open_card, open_values
from games.ai.regret import (
    Answer,
    Decision,
    Position,
    ask,
    ask_variants,
    deal_decisions,
    deal_positions,
    decision_regret,
    has_choice,
    kept_positions,
    main,
    only,
    report,
    variants_report,
)
from games.engine import RoundState, deal, draw_cut, shuffled_deck
from games.engine.actions import PLAYS, Play


@pytest.fixture(autouse=True)
def capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strong, "MAX_SAMPLES", 1)


def first_choice_in_play(seed: int) -> RoundState:
    """Return the first state of a deal's play where the seat to act may choose its card."""
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    state = RoundState.new(
        dealer=dealer, hands=deal(shuffled_deck(rng), dealer=dealer, cut=draw_cut(rng))
    )
    while state.to_act is not None:
        seat = state.to_act
        if state.contract is not None and has_choice(state, seat):
            action = STRONG.act(state, seat, rng, 30)
            if isinstance(action, Play):
                return state
        state = state.apply(seat, STRONG.act(state, seat, rng, 30))
    raise AssertionError("no choice in the whole round")


def seed_with_a_costly_card() -> tuple[RoundState, dict[int, float]]:
    """Return a decision where some legal card scores less than the best on the real deal."""
    for seed in range(1, 60):
        state = first_choice_in_play(seed)
        assert state.to_act is not None
        margins, _ = open_values(state, state.observation(state.to_act))
        if len(set(margins.values())) > 1:
            return state, margins
    raise AssertionError("no decision with unequal cards in 60 deals")


def test_the_open_hand_card_has_no_regret_and_a_worse_card_its_shortfall() -> None:
    state, margins = seed_with_a_costly_card()
    seat = state.to_act
    assert seat is not None
    best = max(margins.values())
    assert (
        decision_regret(state, seat, PLAYS[open_card(state, state.observation(seat))]).regret == 0
    )
    for card, margin in margins.items():
        assert decision_regret(state, seat, PLAYS[card]).regret == best - margin
    assert any(best > margin for margin in margins.values())


def test_a_decision_says_its_trick_place_and_side() -> None:
    state = first_choice_in_play(3)
    seat = state.to_act
    assert seat is not None
    assert state.contract is not None
    observation = state.observation(seat)
    card = next(a for a in observation.legal_actions if isinstance(a, Play))
    decision = decision_regret(state, seat, card)
    trick = observation.current_trick
    assert decision.trick == len(observation.tricks)
    assert decision.place == (0 if trick is None else len(trick.cards))
    assert decision.taker == (int(state.contract.team) == seat % 2)
    assert decision.regret >= 0


def test_a_deal_records_only_the_strong_bots_choices() -> None:
    decisions = deal_decisions((11, 30))
    assert decisions
    assert all(d.regret >= 0 and 0 <= d.trick < 8 and 0 <= d.place < 4 for d in decisions)
    assert len(decisions) < 2 * 4 * 8  # two rounds, two strong seats of eight cards each


def test_the_report_gives_figures_per_round_played() -> None:
    by_deal = [[Decision(0, 0, True, 40), Decision(3, 2, False, 2)], [Decision(1, 1, True, 0)]]
    printed = report(by_deal, seed=4)
    assert "2 duplicate deals" in printed
    assert "double-dummy regret per round: 10.50 sheet points over 3 decisions" in printed
    assert "deciding (regret >= 30): 10.00 per round, 1 decisions" in printed
    assert "0: 10.00 (1 decisions)" in printed
    assert "True: 10.00 (2 decisions)" in printed


def test_the_command_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--deals", "1", "--seed", "2", "--budget", "30"]) == 0
    printed = capsys.readouterr().out
    assert "double-dummy regret per round" in printed
    assert "by place in the trick" in printed
    assert "wall time" in printed


def test_a_position_keeps_the_decision_as_played() -> None:
    positions = deal_positions((11, 30))
    assert [p.decision for p in positions] == deal_decisions((11, 30))
    for pos in positions:
        assert pos.state.to_act == pos.seat
        assert max(pos.margins.values()) - min(pos.margins.values()) >= pos.decision.regret


def test_asking_again_gives_the_regret_of_the_card_chosen() -> None:
    pos = next(p for p in deal_positions((11, 30)) if len(set(p.margins.values())) > 1)
    answer = ask((5, pos, 30))
    assert ask((5, pos, 30)).regret == answer.regret  # the same draws at the same position
    assert answer.regret in {max(pos.margins.values()) - m for m in pos.margins.values()}
    assert answer.seconds > 0


def test_each_variant_is_asked_with_its_own_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def recording(job: object) -> Answer:
        seen.append(strong.PLAY_READING)
        return Answer(0, 0.001)

    monkeypatch.setattr("games.ai.regret.ask", recording)
    positions = deal_positions((11, 30))[:2]
    site = strong.PLAY_READING
    answers = ask_variants(positions, ["no-play-reading", "play-reading"], 30, workers=1)
    assert list(answers) == ["no-play-reading", "play-reading"]
    assert seen == [False, False, True, True]
    assert strong.PLAY_READING is site


def test_the_variants_report_pairs_each_variant_with_the_first() -> None:
    answers = {
        "site": [Answer(40, 0.1), Answer(0, 0.2), Answer(2, 0.3)],
        "play-reading": [Answer(0, 0.1), Answer(0, 0.2), Answer(5, 0.3)],
    }
    printed = variants_report(answers, deals=2, seed=9)
    assert "3 positions of the strong bot's decisions in 2 duplicate deals, seed 9" in printed
    assert "site               14.000" in printed
    assert "1 deciding (>= 30)" in printed
    assert "play-reading       1.667" in printed
    assert "play-reading       - site: -12.333" in printed
    assert "2 positions differ" in printed


def test_the_command_asks_the_variants_named(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--deals", "1", "--seed", "2", "--budget", "30"]
    assert main([*argv, "--variant", "site", "--variant", "play-reading"]) == 0
    printed = capsys.readouterr().out
    assert "play-reading       - site:" in printed
    assert "positions differ" in printed


def test_positions_kept_in_a_file_are_read_back_for_the_same_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "positions.pickle"
    collected = kept_positions(path, 1, 11, 30, workers=1)
    assert path.exists()
    assert collected

    def no_collecting(*args: object) -> None:
        raise AssertionError("the kept positions should have been read")

    monkeypatch.setattr("games.ai.regret.collect_positions", no_collecting)
    again = kept_positions(path, 1, 11, 30, workers=1)
    assert [(p.seat, p.decision, dict(p.margins)) for p in again] == [
        (p.seat, p.decision, dict(p.margins)) for p in collected
    ]
    assert [p.state.history for p in again] == [p.state.history for p in collected]


def test_positions_kept_from_another_run_are_collected_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "positions.pickle"
    kept_positions(path, 1, 11, 30, workers=1)
    calls: list[tuple[object, ...]] = []

    def collecting(*args: object) -> list[object]:
        calls.append(args)
        return []

    monkeypatch.setattr("games.ai.regret.collect_positions", collecting)
    assert kept_positions(path, 1, 12, 30, workers=1) == []
    assert kept_positions(path, 1, 12, 30, workers=1) == []  # now kept for seed 12
    assert kept_positions(path, 2, 12, 30, workers=1) == []
    assert calls == [(1, 12, 30, 1), (2, 12, 30, 1)]


def test_only_keeps_the_decisions_of_its_kind_in_order() -> None:
    state = first_choice_in_play(3)
    kinds = [(place, taker) for place in (0, 1, 0) for taker in (True, False)]
    positions = [
        Position(state, 0, {}, Decision(trick=2, place=place, taker=taker, regret=0.0))
        for place, taker in kinds
    ]

    assert only(positions, "all") == positions
    assert only(positions, "leads") == [positions[0], positions[1], positions[4], positions[5]]
    assert only(positions, "contract-leads") == [positions[0], positions[4]]


def test_the_command_asks_only_at_the_decisions_named(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--deals", "1", "--seed", "2", "--budget", "30", "--variant", "site"]
    assert main(argv) == 0
    every = int(capsys.readouterr().out.split()[0])
    assert main([*argv, "--only", "contract-leads"]) == 0
    leads = int(capsys.readouterr().out.split()[0])

    assert 0 < leads < every


def test_the_command_refuses_a_variant_named_twice() -> None:
    with pytest.raises(SystemExit):
        main(["--deals", "1", "--variant", "site", "--variant", "site"])


def test_the_command_refuses_no_deals() -> None:
    with pytest.raises(SystemExit):
        main(["--deals", "0"])
