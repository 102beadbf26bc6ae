"""The solver's benchmark prints its times and the nodes it searched."""

import pytest

from games.ai import bench_solver


def test_the_benchmark_prints_times_and_nodes(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_solver.main(["--deals", "2", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("open-hand solver, full deal from the first lead, 2 deals")
    assert lines[1].startswith("median ")
    assert lines[1].endswith(" ms")
    assert lines[2].startswith("nodes searched: median ")
    total = int(lines[2].rsplit("total ", 1)[1].replace(",", ""))
    assert total > 1_000  # a full deal is never solved in a handful of nodes
