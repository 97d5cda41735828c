"""`python -m service.replay FILE`: a game record verified offline, with the engine
alone; exit 0 valid, 1 invalid (the first step that differs printed), 2 unreadable."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from service.app import create_app
from service.core.records.format import MAX_RECORD_BYTES
from service.games import games
from service.replay import main
from service.settings import Settings
from tests.conftest import Api, client_for
from tests.core.test_game_record_tampering import finished
from tests.support.play import create, play_to_end


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


# The record-only package (packages/records): what it ships, as its pyproject.toml says.
ROOT = Path(__file__).parents[1]
RECORDS = ROOT / "packages" / "records"


def _shipped() -> list[Path]:
    config = tomllib.loads((RECORDS / "pyproject.toml").read_text())
    included = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    return [Path(target) for target in included.values()]


def _outside(dependencies: list[str]) -> list[str]:
    """The top-level modules of every installed distribution but `dependencies`, what they
    require (whatever the markers) and the service."""
    kept, todo = {"service"}, [re.sub(r"[-_.]+", "-", d).lower() for d in dependencies]
    while todo:
        name = todo.pop()
        if name in kept:
            continue
        kept.add(name)
        for required in importlib.metadata.requires(name) or []:
            if "extra ==" not in required:
                todo.append(
                    re.sub(r"[-_.]+", "-", re.split(r"[^A-Za-z0-9._-]", required)[0]).lower()
                )
    return sorted(
        module
        for module, names in importlib.metadata.packages_distributions().items()
        if not {re.sub(r"[-_.]+", "-", n).lower() for n in names} & kept
        and module not in sys.stdlib_module_names
    )


def test_the_records_package_ships_every_module_a_verification_imports(tmp_path: Path) -> None:
    """`python -m service.replay` verifies a game of each kind with every other installed
    distribution than the wheel's dependencies made unimportable, and every module of the
    service it loads is in the wheel's list (packages/records/pyproject.toml), none of the
    server's; the slow test below builds and installs the wheel and runs it."""
    paths = []
    for kind in sorted(games()):
        paths.append(tmp_path / f"{kind}.json")
        paths[-1].write_text(json.dumps(finished(kind, 2, f"shipped-{kind}")))
    config = tomllib.loads((RECORDS / "pyproject.toml").read_text())
    blocked = _outside(config["tool"]["records"]["dependencies"])
    assert {"redis", "starlette", "strawberry", "psycopg"} <= set(blocked)
    probe = (
        "import json, runpy, sys\n"
        "for name in json.loads(sys.argv[1]): sys.modules[name] = None\n"
        "for path in sys.argv[2:]:\n"
        "    sys.argv = ['service.replay', path]\n"
        "    try:\n"
        "        runpy.run_module('service.replay', run_name='__main__', alter_sys=True)\n"
        "    except SystemExit as exited:\n"
        "        assert exited.code == 0, exited.code\n"
        "service = [m for name, m in sys.modules.items() if name.split('.')[0] == 'service']\n"
        "print(' '.join(sorted(m.__file__ for m in service)))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe, json.dumps(blocked), *map(str, paths)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 0, f"{run.stderr}\n(a dependency missing from [tool.records]?)"
    loaded = [Path(file).relative_to(ROOT) for file in run.stdout.splitlines()[-1].split()]
    shipped = _shipped()
    missing = [f for f in loaded if not any(f == p or p in f.parents for p in shipped)]
    assert missing == [], "add them to packages/records/pyproject.toml's force-include"
    assert len(loaded) > 50, loaded
    server = [p for p in shipped if p.parts[1] in {"api", "archive", "worker", "webhooks"}]
    assert server == []


@pytest.fixture
async def signed_record(redis_url: str) -> tuple[dict[str, Any], str]:
    """A game played to its end through the real app with a signing key, its record as the
    service exports it, and the public key the service publishes (GET /v1/record-keys)."""
    seed = hashlib.sha256(b"tests: the records package's key").digest()
    settings = Settings(
        rate_limit_per_token=0,
        rate_limit_per_address=0,
        record_signing_key=base64.urlsafe_b64encode(seed).rstrip(b"=").decode(),
    )
    async with client_for(create_app(settings, redis_url)) as http:
        api = Api(http)
        game, tokens = await create(api, "TREETOPIA", 2, seed="records-package")
        await play_to_end(api, game, tokens, seed="records-package")
        record = await api.gql("query E($id: ID!) { exportGame(gameId: $id) }", {"id": game["id"]})
        (key,) = (await http.get("/v1/record-keys")).json()["keys"]
    return record["exportGame"], key["publicKey"]


@pytest.mark.slow
def test_the_records_package_alone_verifies_a_signed_record(
    tmp_path: Path, signed_record: tuple[dict[str, Any], str]
) -> None:
    """The wheel built from packages/records, installed in a fresh virtual environment with its
    two dependencies only: no server dependency importable there, `--help` answers, the
    service's signed record is valid with its published key, and refused once tampered with."""
    uv = Path(sys.executable).parent / "uv"
    built = subprocess.run(
        [uv, "build", "--wheel", str(RECORDS), "--out-dir", tmp_path / "dist"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("tree_rules_records-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True, timeout=120)
    python = venv / "bin" / "python"
    installed = subprocess.run(
        [uv, "pip", "install", "--python", python, wheel],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}

    def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
        # away from this checkout: `-m` would find its service/ in the working directory
        return subprocess.run(
            [python, *args], capture_output=True, text=True, timeout=120, check=False,
            cwd=tmp_path, env=env,
        )  # fmt: skip

    for server in ("redis", "starlette", "strawberry", "psycopg", "service.core.service"):
        assert run("-c", f"import {server}").returncode != 0, f"{server} is importable"
    helped = run("-m", "service.replay", "--help")
    assert helped.returncode == 0 and helped.stdout.startswith("usage: python -m service.replay")

    record, key = signed_record
    path = tmp_path / "signed.json"
    path.write_text(json.dumps(record))
    checked = run("-m", "service.replay", path, "--public-key", key, "--require-signature")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    said = checked.stdout.splitlines()
    assert said[0].startswith("valid: TREETOPIA, ") and said[1].startswith("signature: VALID")

    path.write_text(json.dumps({**record, "ended": "2030-01-01T00:00:00.000+00:00"}))
    resigned = run("-m", "service.replay", path, "--public-key", key, "--require-signature")
    assert resigned.returncode == 3 and "signature: INVALID" in resigned.stdout
    steps = [dict(step) for step in record["steps"]]
    steps[3]["digest"] = "0" * 64
    path.write_text(json.dumps({**record, "steps": steps}))
    edited = run("-m", "service.replay", path, "--public-key", key)
    assert edited.returncode == 1 and edited.stdout.startswith("invalid: version 4: ")
