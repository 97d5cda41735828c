"""The Python SDK (sdk/python, README.md there): the hand-written facade `rules_client` over the
engine ariadne-codegen generates into `rules_client/_generated` from schema/schema.graphql and
sdk/python/operations.graphql.

What is committed is what the generator makes now (as tests/api/test_contracts.py checks
schema/); `mypy --strict` passes over the package and sdk/python/examples/play.py; that example
plays a whole game of every kind against a real service process, and the blocking client
(`Rules`) plays one too. The other files: test_python_sdk_parity.py (every root field has a
method, every service code an ErrorCode), _errors.py (every refusal typed), _live.py (events,
resume, retries against real processes), _wheel.py (the built wheel, installed).
"""

from __future__ import annotations

import filecmp
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from service.api.contracts import SCHEMA_DIR
from tests.clients.conftest import KINDS, Service

ROOT = Path(__file__).parents[2]
SDK = ROOT / "sdk" / "python"
PACKAGE = "rules_client"
GENERATED = SDK / PACKAGE / "_generated"
# what the generator reads besides the schema (sdk/python/pyproject.toml names them)
INPUTS = ["pyproject.toml", "operations.graphql", "py.typed", "codegen"]
OPTIONS = {  # seedReveal.typedOptions' type per kind
    "TREELINE": "TreelineOptions",
    "TREELINGS": "TreelingsOptions",
    "TREETOPIA": "TreetopiaOptions",
    "TREE_LINED_AVENUE": "AvenueOptions",
}


def _generated(directory: Path) -> dict[str, Path]:
    return {
        str(p.relative_to(directory)): p
        for p in sorted(directory.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_the_committed_engine_is_what_make_sdk_generates(tmp_path: Path) -> None:
    """The generator, pinned in sdk/python/uv.lock, run on copies of its inputs laid out as in
    the repository: every file the same, none missing, none left over."""
    make = subprocess.run(
        ["make", "-s", "sdk/python/.venv/.installed"], cwd=ROOT,
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert make.returncode == 0, make.stdout + make.stderr
    work = tmp_path / "sdk" / "python"
    (work / PACKAGE).mkdir(parents=True)
    for name in INPUTS:
        source = SDK / name
        if source.is_dir():
            shutil.copytree(source, work / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, work / name)
    (tmp_path / "schema").mkdir()
    shutil.copy(SCHEMA_DIR / "schema.graphql", tmp_path / "schema" / "schema.graphql")
    run = subprocess.run(
        [SDK / ".venv" / "bin" / "ariadne-codegen", "client"], cwd=work,
        env={**os.environ, "PYTHONPATH": str(work)},  # its plugin, codegen/schema_version.py
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    fresh, committed = _generated(work / PACKAGE / "_generated"), _generated(GENERATED)
    assert sorted(fresh) == sorted(committed), "run `make sdk` and commit sdk/python/rules_client"
    stale = [name for name in fresh if not filecmp.cmp(fresh[name], committed[name], False)]
    assert not stale, f"stale {stale}: run `make sdk` and commit sdk/python/rules_client"


@pytest.mark.slow
def test_mypy_strict_is_clean_over_the_sdk_and_its_example(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", tmp_path / "cache",
         "--config-file", SDK / "pyproject.toml", PACKAGE, "examples/play.py"],
        cwd=SDK, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout, run.stdout


EXAMPLE = "rules_client_example"  # sdk/python/examples/play.py, imported under this name


@pytest.fixture(scope="module")
def sdk() -> Iterator[None]:
    """The committed package importable as `rules_client`."""
    sys.path.insert(0, str(SDK))
    try:
        yield
    finally:
        sys.path.remove(str(SDK))


@pytest.fixture(scope="module")
def rules(sdk: None) -> ModuleType:
    return importlib.import_module(PACKAGE)


@pytest.fixture(scope="module")
def example(sdk: None) -> ModuleType:
    spec = importlib.util.spec_from_file_location(EXAMPLE, SDK / "examples" / "play.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules[EXAMPLE] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
async def test_the_sdk_plays_a_whole_game_of_every_kind(
    rules: ModuleType, example: ModuleType, service: Service, kind: str
) -> None:
    played = await example.play(service.url, rules.GameKind(kind), 2, seed=f"sdk-{kind}")
    assert played.kind == kind and played.players == 2
    assert played.decisions >= 10, played  # a whole game, not a resignation
    assert played.version >= played.decisions  # forced steps come on top
    assert played.winners and set(played.winners) <= {0, 1}, played
    assert len(played.points) == 2 and max(played.points) >= 0
    assert played.options == OPTIONS[kind]
    assert played.commitment_holds
    assert played.record_valid, "export_game's record verifies (verify_game_record)"
    assert played.history_moves == played.version  # every version is a typed move
    assert played.events == list(range(1, played.version + 1))  # replayed, gap-free, once each


def test_the_blocking_client_plays_and_follows_a_game(rules: ModuleType, service: Service) -> None:
    """`Rules` (no asyncio in the caller): create, play every decision from the legal moves,
    follow the versions with `events`, and read the same errors as AsyncRules."""
    with rules.Rules(service.url) as anyone:
        created = anyone.create_game(rules.GameKind.TREELINGS, 2, seed="sdk-sync")
        seats = [anyone.with_token(seat.token) for seat in created.seats]
        game = created.game
        for _ in range(4):
            seat = seats[game.to_act[0]]
            legal = seat.legal_moves(game.id)
            game = seat.apply_move(
                game.id, legal.legal_moves[0], expected_version=game.version
            ).game
        assert game.version >= 4
        seen = []
        for event in anyone.events(game.id, after_version=0):
            seen.append(event.version)
            if event.version == game.version:
                break  # the game goes on: stop at the version played
        assert seen == list(range(1, game.version + 1))
        with pytest.raises(rules.NotFoundError) as unknown:
            anyone.game("no-such-game")
        assert unknown.value.code is rules.ErrorCode.NOT_FOUND


@pytest.mark.slow  # two interpreters importing the SDK: seconds on a busy machine
def test_the_readme_quick_starts_run(service: Service) -> None:
    """sdk/python/README.md's whole programs (the blocking and the asyncio quick start), run
    as written against a service without keys."""
    blocks = re.findall(r"```python\n(.*?)```", (SDK / "README.md").read_text(), re.S)
    programs = [block for block in blocks if "Rules(" in block and "create_game" in block]
    assert len(programs) == 2, "the blocking and the asyncio quick start"
    env = {k: v for k, v in os.environ.items() if k != "RULES_API_KEY"} | {"PYTHONPATH": str(SDK)}
    for program in programs:
        run = subprocess.run(
            [sys.executable, "-c", program.replace("http://127.0.0.1:8000", service.url)],
            env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert run.returncode == 0, program + run.stderr
        assert run.stdout.split()[0] == "1", run.stdout  # the version after the first move
