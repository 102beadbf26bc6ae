"""Command line: ``python -m games.engine replay FILE|-`` prints a record's state as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .errors import MalformedRecordError
from .records import load_record, state_to_json

EXIT_BAD_RECORD = 2


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m games.engine")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a hand or match record (JSON)")
    replay.add_argument("file", help="the record file, or - for standard input")
    args = parser.parse_args(argv)
    return replay_command(args.file)


def replay_command(path: str) -> int:
    """Replay the record at ``path`` and print its state, or the first error."""
    try:
        text = sys.stdin.read() if path == "-" else _read(path)
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return _fail({"error": f"cannot read the record: {error}", "index": None})
    try:
        state = load_record(data)
    except MalformedRecordError as error:
        failure: dict[str, Any] = {"error": str(error), "index": error.index}
        if isinstance(data, dict) and "rounds" in data:
            failure["round"] = error.round
        return _fail(failure)
    _print(state_to_json(state))
    return 0


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _fail(failure: dict[str, Any]) -> int:
    _print(failure)
    return EXIT_BAD_RECORD


def _print(data: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(data) + "\n")


if __name__ == "__main__":
    sys.exit(main())
