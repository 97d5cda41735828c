"""`make bench-live` in small (loadtests/live.py --quick): 200 sockets of every audience and
selection follow a game through 5 moves on a real API process, and each sees every version
once, in order."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow  # processes, hundreds of sockets, a minute of wall time


def test_the_live_benchmark_gives_every_socket_every_version_once_in_order(
    tmp_path: Path,
) -> None:
    results = tmp_path / "live.json"
    command = [sys.executable, "-m", "loadtests.live", "--quick", "--json", str(results)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    table = done.stdout.split("\n\n")[-1].splitlines()  # the final table, after the live rows
    assert table[0].split()[:4] == ["sockets", "audience", "sel", "status"], done.stdout
    rows = {tuple(line.split()[1:3]): line.split() for line in table[1:5]}
    assert set(rows) == {(audience, selection) for audience in ("spectators", "mixed")
                         for selection in ("thin", "fat")}  # fmt: skip
    for key, cells in rows.items():
        assert cells[0] == "200" and cells[3] == "ok", (key, done.stdout)
        assert cells[-4:] == ["0", "0", "0", "0"], (key, "lost dup order errors", done.stdout)
    assert "violations: 0; scenarios failed: 0 of 4" in done.stdout
    for row in json.loads(results.read_text())["scenarios"]:
        assert row["opened"] == 200 and row["moves_made"] == 5, row
        assert row["versions"] >= 5 and row["violations"] == 0, row
        assert row["last_p50_ms"] == row["last_p50_ms"], "a latency for every version"
