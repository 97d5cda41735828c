"""The TypeScript SDK (sdk/typescript): its committed generated module is what graphql-codegen
makes of schema/schema.graphql and operations.graphql now, it type-checks under `tsc --strict`,
and compiled with tsc its `play` plays a whole game of every kind against a real service
process, moving by the `typedMoveInput` it reads, as does docs/api.md's example.

The npm packages are pinned in sdk/typescript/package-lock.json; `npm ci` runs when
node_modules is older than the lock (`make sdk-typescript` does the same)."""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from graphql import OperationDefinitionNode, build_schema, parse, validate

from service.api.contracts import SCHEMA_DIR
from tests.clients.conftest import KINDS, Service, require
from tests.support.workers import WorkerProcess

# npm ci, tsc and node processes take many seconds of wall time: those tests are `slow`
slow = pytest.mark.slow

ROOT = Path(__file__).parents[2]
SDK = ROOT / "sdk" / "typescript"
DOC = ROOT / "docs" / "api.md"
# docs/api.md's TypeScript example: the ```ts block under "### TypeScript"
DOC_EXAMPLE = re.compile(r"^### TypeScript\n.*?```ts\n(.*?)```", re.S | re.M)


def _run(command: list[str | Path], cwd: Path, timeout: float = 300, **env: str) -> str:
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd, capture_output=True, text=True, timeout=timeout, env={**os.environ, **env},
    )  # fmt: skip
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def node_modules() -> Path:
    require("node", "apt-get install nodejs")
    npm = require("npm", "apt-get install npm")
    installed = SDK / "node_modules" / ".package-lock.json"
    lock = SDK / "package-lock.json"
    with (SDK / ".npm-ci.lock").open("w") as held:  # parallel test workers install once
        fcntl.flock(held, fcntl.LOCK_EX)
        if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
            _run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], SDK, timeout=600)
    return SDK / "node_modules"


@pytest.fixture(scope="module")
def built(node_modules: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """src/ and docs/api.md's example compiled by tsc (strict, nothing emitted on an error) in a
    copy of the package; its node_modules are the SDK's own."""
    copy = tmp_path_factory.mktemp("sdk-ts")
    for name in ["package.json", "tsconfig.json"]:
        shutil.copy(SDK / name, copy / name)
    shutil.copytree(SDK / "src", copy / "src")
    (copy / "node_modules").symlink_to(node_modules)
    example = DOC_EXAMPLE.search(DOC.read_text())
    assert example, "docs/api.md has a ```ts example under ### TypeScript"
    (copy / "src" / "doc_example.ts").write_text(example[1])
    _run([node_modules / ".bin" / "tsc", "--strict", "--noEmitOnError", "-p", "."], copy)
    return copy / "build"


@slow
def test_the_committed_generated_module_is_what_codegen_makes_now(node_modules: Path) -> None:
    """After a schema or operations change: `make sdk-typescript` and commit src/generated/."""
    run = subprocess.run(
        [node_modules / ".bin" / "graphql-codegen", "--config", "codegen.ts", "--check"],
        cwd=SDK, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, f"stale: run `make sdk-typescript`\n{run.stdout}\n{run.stderr}"


def test_the_operations_are_valid_against_the_published_schema() -> None:
    """The fast tier's check of the SDK: a schema change that breaks an operation fails here
    without node; the generated module then answers for each operation."""
    schema = build_schema((SCHEMA_DIR / "schema.graphql").read_text())
    operations = parse((SDK / "operations.graphql").read_text())
    assert not validate(schema, operations), "operations.graphql fits schema/schema.graphql"
    names = [
        (definition.name.value, definition.operation.value.capitalize())
        for definition in operations.definitions
        if isinstance(definition, OperationDefinitionNode) and definition.name
    ]
    assert len(names) >= 9
    generated = (SDK / "src" / "generated" / "graphql.ts").read_text()
    for name, kind in names:
        assert f"export type {name}{kind} = " in generated, f"{name}: run `make sdk-typescript`"
        assert f"export const {name}Document = " in generated, name
    assert "typedMoveInput: unknown" in generated, "the JSON scalar is `unknown`, never `any`"
    assert not re.search(r"\bany\b", generated), "nothing is typed `any`"


@slow
def test_the_sdk_type_checks_under_tsc_strict(node_modules: Path) -> None:
    _run([node_modules / ".bin" / "tsc", "--strict", "--noEmit", "-p", "."], SDK)


def _summary(output: str) -> dict[str, Any]:
    summary: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return summary


@slow
def test_play_finishes_a_whole_game_of_every_kind_moving_by_typed_move_input(
    built: Path, service: Service, bot_worker: WorkerProcess
) -> None:
    node = require("node", "apt-get install nodejs")
    summary = _summary(_run([node, built / "play.js", service.graphql, "pytest"], built, 600))
    print(json.dumps(summary))  # shown on a failure, and with -s
    games = {game["kind"]: game for game in summary["games"]}
    assert sorted(games) == sorted(KINDS)
    for kind, game in games.items():
        assert game["status"] == "FINISHED", game
        assert game["final"] is True and game["winners"], game
        assert len(game["points"]) == game["players"], game
        assert game["moves"] > 0 and game["humanMoves"] > 0, game
        assert game["historyEntries"] == game["moves"], "every version is a move"
        # the subscription saw every version once, in order, up to the last one
        assert game["gapFree"] is True and game["events"] >= game["moves"], game
        assert game["replayedFromStart"] is True, f"{kind}: afterVersion 0 replays versions 1..N"
        assert game["commitmentHolds"] is True, f"{kind}: sha256(salt + seed) is the commitment"
        assert game["recordValid"] is True, f"{kind}: exportGame's record verifies"
        assert game["revealedOptions"] is not None, game
        assert game["phases"], "the typed view was read"
    # the bot seats (TREETOPIA, AVENUE) were played by the worker, the rest by play.ts
    for kind in ["TREETOPIA", "TREE_LINED_AVENUE"]:
        game = games[kind]
        assert game["bots"] and game["humanMoves"] + game["forcedMoves"] < game["moves"], game
    for kind in ["TREELINE", "TREELINGS"]:
        # every move but the forced steps the service takes itself (docs/api.md, Concepts)
        assert games[kind]["humanMoves"] + games[kind]["forcedMoves"] == games[kind]["moves"]
    assert summary["resigned"]["status"] == "FINISHED"
    assert summary["resigned"]["outcome"] == {"reason": "RESIGNED", "seat": 0, "winners": [1]}
    # a rule's refusal is a typed MoveRejected; a request's error a RulesError with its code
    assert summary["refused"] == {"staleVersion": "STALE_VERSION", "badToken": "UNAUTHORIZED"}


@slow
def test_the_documented_typescript_example_finishes_a_game(built: Path, service: Service) -> None:
    node = require("node", "apt-get install nodejs")
    summary = _summary(_run([node, built / "doc_example.js"], built, 300, BASE=service.url))
    assert summary["status"] == "FINISHED" and summary["scores"]["final"] is True, summary
    assert summary["moves"] > 0, summary
