"""``python -m games.engine replay``: output and exit status for hand records."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from games.engine import match_to_record, round_to_record, state_to_json

from .helpers import random_match, random_round

ROOT = Path(__file__).resolve().parents[3]


def replay(argument: str, stdin: str = "") -> tuple[int, Any, str]:
    process = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", argument],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    lines = process.stdout.splitlines()
    assert len(lines) == 1, process.stdout + process.stderr
    return process.returncode, json.loads(lines[0]), process.stderr


def test_a_round_file_prints_its_state(tmp_path: Path) -> None:
    state = random_round(21)
    path = tmp_path / "round.json"
    path.write_text(json.dumps(round_to_record(state)))
    status, printed, _ = replay(str(path))
    assert status == 0
    assert printed == state_to_json(state)


def test_standard_input_and_a_match_record() -> None:
    match = random_match(8)
    status, printed, _ = replay("-", json.dumps(match_to_record(match)))
    assert status == 0
    assert printed["totals"] == list(match.totals)
    assert printed["winner"] == match.winner


def test_an_illegal_action_prints_its_index_and_exits_2() -> None:
    data = round_to_record(random_round(22))
    data["actions"][3]["seat"] = (data["actions"][3]["seat"] + 1) % 4
    status, printed, _ = replay("-", json.dumps(data))
    assert status == 2
    assert set(printed) == {"error", "index"}
    assert printed["index"] == 3
    assert printed["error"].startswith("not_your_turn")


def test_a_malformed_action_in_a_match_names_index_and_round() -> None:
    data = match_to_record(random_match(8))
    data["rounds"][0]["actions"][1]["seat"] = 1.0
    status, printed, _ = replay("-", json.dumps(data))
    assert status == 2
    assert (printed["index"], printed["round"]) == (1, 0)


def test_bad_json_and_malformed_records_print_a_null_index() -> None:
    for text in ["{not json", "[]", json.dumps({"dealer": 0, "hands": ["AC"], "actions": []})]:
        status, printed, _ = replay("-", text)
        assert status == 2
        assert set(printed) == {"error", "index"}
        assert printed["index"] is None


def test_a_missing_file_is_an_error_with_a_null_index(tmp_path: Path) -> None:
    status, printed, _ = replay(str(tmp_path / "missing.json"))
    assert status == 2
    assert printed["index"] is None
