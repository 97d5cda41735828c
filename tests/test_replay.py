"""`python -m service.replay FILE`: a game record verified offline, with the engine
alone; exit 0 valid, 1 invalid (the first step that differs printed), 2 unreadable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from service.core.record_format import MAX_RECORD_BYTES
from tests.core.test_game_record_tampering import finished


def replay(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "service.replay", *args]
    return subprocess.run(
        command, input=None if stdin is None else stdin.decode(), capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip


def test_a_valid_record_exits_0_with_its_final_scores(tmp_path: Path) -> None:
    record = finished("TREELINGS", 2, "cli-valid")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    run = replay(str(path))
    assert run.returncode == 0, run.stderr
    version = record["result"]["version"]
    assert run.stdout.startswith(f"valid: TREELINGS, {version} versions, final scores ")
    assert json.loads(run.stdout.split("final scores ", 1)[1]) == record["result"]["scores"]
    from_stdin = replay("-", stdin=path.read_bytes())
    assert from_stdin.returncode == 0 and from_stdin.stdout == run.stdout


def test_an_edited_record_exits_1_naming_the_first_step_that_differs(tmp_path: Path) -> None:
    record = finished("TREE_LINED_AVENUE", 2, "cli-edited")
    record["steps"][6]["digest"] = "0" * 64
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(record))
    run = replay(str(path))
    assert run.returncode == 1
    assert run.stdout.startswith("invalid: version 7: STATE_MISMATCH: ")


def test_what_cannot_be_read_exits_2(tmp_path: Path) -> None:
    assert replay(str(tmp_path / "missing.json")).returncode == 2
    (tmp_path / "bad.json").write_text("{not json")
    bad = replay(str(tmp_path / "bad.json"))
    assert bad.returncode == 2 and "unreadable" in bad.stderr
    (tmp_path / "huge.json").write_text(json.dumps({"x": "y" * MAX_RECORD_BYTES}))
    assert replay(str(tmp_path / "huge.json")).returncode == 2
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    assert replay(str(tmp_path / "deep.json")).returncode == 2  # msgspec stops recursing
    assert replay().returncode == 2  # no file named
    (tmp_path / "list.json").write_text("[]")
    not_a_record = replay(str(tmp_path / "list.json"))
    assert not_a_record.returncode == 1 and "MALFORMED" in not_a_record.stdout
