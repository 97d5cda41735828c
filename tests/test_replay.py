"""`python -m service.replay FILE`: a game record verified offline, with the engine
alone; exit 0 valid, 1 invalid (the first step that differs printed), 2 unreadable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from service.core.records.format import MAX_RECORD_BYTES
from service.replay import main
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


def test_an_edited_record_exits_1_naming_the_first_step_that_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = finished("TREE_LINED_AVENUE", 2, "cli-edited")
    record["steps"][6]["digest"] = "0" * 64
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(record))
    assert main([str(path)]) == 1
    assert capsys.readouterr().out.startswith("invalid: version 7: STATE_MISMATCH: ")


def test_what_cannot_be_read_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The exit codes as main() returns them (the test above runs the command itself)."""
    assert main([str(tmp_path / "missing.json")]) == 2
    (tmp_path / "bad.json").write_text("{not json")
    assert main([str(tmp_path / "bad.json")]) == 2
    assert "unreadable" in capsys.readouterr().err
    (tmp_path / "huge.json").write_text(json.dumps({"x": "y" * MAX_RECORD_BYTES}))
    assert main([str(tmp_path / "huge.json")]) == 2
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    assert main([str(tmp_path / "deep.json")]) == 2  # msgspec stops recursing
    with pytest.raises(SystemExit) as exited:
        main([])  # no file named
    assert exited.value.code == 2
    (tmp_path / "list.json").write_text("[]")
    assert main([str(tmp_path / "list.json")]) == 1
    assert "MALFORMED" in capsys.readouterr().out


def test_help_is_the_usage_not_a_file_name(capsys: pytest.CaptureFixture[str]) -> None:
    for asked in ("--help", "-h"):
        with pytest.raises(SystemExit) as exited:
            main([asked])
        assert exited.value.code == 0
        said = capsys.readouterr()
        assert said.out.startswith("usage: python -m service.replay") and not said.err


# The service's server and store dependencies: none of them is needed to verify a record.
SERVER_ONLY = (
    "redis", "hiredis", "psycopg", "psycopg_pool", "strawberry", "graphql", "starlette",
    "uvicorn", "httpx", "prometheus_client", "wsproto", "starlette_compress",
)  # fmt: skip


def test_it_runs_with_none_of_the_servers_dependencies(tmp_path: Path) -> None:
    """`python -m service.replay` imports the engine, the games, the bots and the record's
    replay only (msgspec, and cryptography for signatures): run with every server dependency
    made unimportable, it verifies a record all the same."""
    record = finished("TREETOPIA", 2, "cli-standalone")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    blocked = (
        f"import runpy, sys\nfor name in {SERVER_ONLY!r}: sys.modules[name] = None\n"
        f"sys.argv = ['service.replay', {str(path)!r}]\n"
        "runpy.run_module('service.replay', run_name='__main__', alter_sys=True)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", blocked], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("valid: TREETOPIA, ")
    probe = "import sys; sys.modules['redis'] = None; import redis"
    refused = subprocess.run([sys.executable, "-c", probe], capture_output=True, check=False)
    assert refused.returncode != 0, "a module set to None cannot be imported: the block holds"
