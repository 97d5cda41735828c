"""`python -m loadtests.catch_up` in small: a 200-version game replayed to 4 subscriptions of
one seat token while another tenant reads its scores; the run completes and prints its table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow  # two processes and a Redis, ~15 s of wall time


def test_the_catch_up_benchmark_reports_both_phases(tmp_path: Path) -> None:
    results = tmp_path / "catch_up.json"
    command = [
        sys.executable, "-m", "loadtests.catch_up", "--versions", "200", "--seconds", "2",
        "--sockets", "1", "--subscriptions", "4", "--json", str(results),
    ]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = done.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("phase"))
    assert lines[header].split() == ["phase", "reads", "p50", "ms", "p99", "ms", "max", "ms",
                                     "non-200"]  # fmt: skip
    rows = {line.split()[0]: line.split() for line in lines[header + 1 : header + 3]}
    assert set(rows) == {"idle", "catch-up"}, done.stdout
    for cells in rows.values():
        assert len(cells) == 6 and int(cells[1]) > 0, done.stdout
    assert "p99 catch-up / idle:" in done.stdout
    assert "server CPU s:" in done.stdout and "replayed:" in done.stdout
    found = json.loads(results.read_text())
    assert found["game_a"]["versions"] >= 100, found["game_a"]  # an unseeded game: about 200
    assert len(found["frames_per_subscription"]) == 4
    assert found["frames_total"] > 0
