"""`python -m loadtests.lobby --quick`: the matchmaking benchmark in small runs to its end and
prints its table: the floor, the burst (every player matched) and the deep pool."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow  # a Redis, and windows that widen in real time (~20 s)


def test_the_lobby_benchmark_matches_everyone_and_reports(tmp_path: Path) -> None:
    results = tmp_path / "lobby.json"
    command = [sys.executable, "-m", "loadtests.lobby", "--quick", "--json", str(results)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = done.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("phase"))
    assert lines[header].split() == ["phase", "per", "s", "p50", "p99", "max"]
    rows = [line.split()[0] for line in lines[header + 1 : header + 4]]
    assert rows == ["floor", "burst", "deep"], done.stdout
    found = json.loads(results.read_text())
    burst = found["burst"]
    assert burst["matched"] + burst["never_fit"] == burst["players"] == 400
    assert burst["never_fit"] <= 2
    assert found["deep_pool"]["matched"] == 2 * found["deep_pool"]["newcomers"] == 200
    assert found["floor"]["round_trips_per_s"] > 0 and found["burst"]["p99_s"] > 0
