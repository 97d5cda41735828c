"""The TypeScript SDK (sdk/typescript): its committed generated module is what graphql-codegen
makes of schema/schema.graphql and operations.graphql now, every root field of the schema has
a method of `Rules`, its error codes are the service's, its version follows the schema, it
type-checks under `tsc --strict`, and compiled with tsc its `play` plays a whole game of every
kind against a real service process, moving by the `typedMoveInput` it reads, as does
docs/api.md's example; `play` tells a missing API key from a malformed one.

The npm packages are pinned in sdk/typescript/package-lock.json; `npm ci` runs when
node_modules is older than the lock (`make sdk-typescript` does the same). The fixtures here
(`node_modules`, `built`) serve the other test_typescript_*.py modules too."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from graphql import FieldNode, OperationDefinitionNode, build_schema, parse, validate

from service.api.contracts import SCHEMA_DIR
from service.api.graphql.errors import public_code
from service.refusals import Code, Refused
from tests.clients.conftest import KINDS, Service, require
from tests.support.processes import service_processes
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


@pytest.fixture(scope="session")
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


@pytest.fixture(scope="session")
def built(node_modules: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """src/ and docs/api.md's example compiled by tsc (strict, nothing emitted on an error) into
    dist/ of a copy of the package; its node_modules are the SDK's own."""
    copy = tmp_path_factory.mktemp("sdk-ts")
    for name in ["package.json", "tsconfig.json"]:
        shutil.copy(SDK / name, copy / name)
    shutil.copytree(SDK / "src", copy / "src")
    (copy / "node_modules").symlink_to(node_modules)
    example = DOC_EXAMPLE.search(DOC.read_text())
    assert example, "docs/api.md has a ```ts example under ### TypeScript"
    (copy / "src" / "doc_example.ts").write_text(example[1])
    _run([node_modules / ".bin" / "tsc", "--strict", "--noEmitOnError", "-p", "."], copy)
    return copy / "dist"


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


RULES_TS = SDK / "src" / "rules.ts"
ERRORS_TS = SDK / "src" / "errors.ts"


def _selected_root_fields() -> dict[tuple[str, str], str]:
    """(operation type, root field) -> the name of the operation in operations.graphql that
    selects it."""
    selected: dict[tuple[str, str], str] = {}
    for definition in parse((SDK / "operations.graphql").read_text()).definitions:
        if isinstance(definition, OperationDefinitionNode) and definition.name:
            for field in definition.selection_set.selections:
                if isinstance(field, FieldNode):
                    selected[(definition.operation.value, field.name.value)] = definition.name.value
    return selected


def test_every_root_field_of_the_schema_has_a_method_of_rules() -> None:
    """A new query, mutation or subscription: add an operation to operations.graphql, run
    `make sdk-typescript` and give it a method in src/rules.ts."""
    schema = build_schema((SCHEMA_DIR / "schema.graphql").read_text())
    selected = _selected_root_fields()
    rules = RULES_TS.read_text()
    roots = [schema.query_type, schema.mutation_type, schema.subscription_type]
    missing = [
        f"{root.name}.{field}"
        for root in roots
        if root is not None
        for field in root.fields
        if (name := selected.get((root.name.lower(), field))) is None
        or f"ops.{name}Document" not in rules
    ]
    assert not missing, f"root fields without a method of Rules: {missing}"


def _ts_codes(name: str) -> set[str]:
    found = re.search(rf"export const {name} = \[(.*?)\] as const;", ERRORS_TS.read_text(), re.S)
    assert found, f"src/errors.ts exports {name}"
    return set(re.findall(r'"([A-Z_]+)"', found[1]))


def test_the_sdks_error_codes_are_the_services() -> None:
    """ErrorCode names every code the service answers (service/refusals.py as GraphQL names it,
    and RejectCode), no code the service never says, and codes of the SDK's own that none of
    the service's can be taken for."""
    refusals = {public_code(Refused(code, "")) for code in Code}
    rejects = set(build_schema((SCHEMA_DIR / "schema.graphql").read_text()).type_map["RejectCode"].values)  # type: ignore[attr-defined]  # fmt: skip
    sdk = _ts_codes("SERVICE_ERROR_CODES")
    assert refusals | rejects <= sdk, f"missing from ErrorCode: {(refusals | rejects) - sdk}"
    said = set(re.findall(r"`([A-Z][A-Z_]+)`", DOC.read_text()))
    for module in (ROOT / "service" / "api").rglob("*.py"):
        said |= set(re.findall(r'"([A-Z][A-Z_]+)"', module.read_text()))
    assert sdk - refusals <= said, f"codes the service never answers: {sdk - refusals - said}"
    own = _ts_codes("CLIENT_ERROR_CODES")
    assert own and not own & (said | refusals), own & (said | refusals)


def test_the_version_follows_the_schema() -> None:
    """After `make schema`: `make sdk-typescript` bumps the minor version and records the hash."""
    manifest = json.loads((SDK / "package.json").read_text())
    schema = hashlib.sha256((SCHEMA_DIR / "schema.graphql").read_bytes()).hexdigest()
    assert manifest["schemaSha256"] == schema, "run `make sdk-typescript` after `make schema`"
    stamped = (SDK / "src" / "generated" / "version.ts").read_text()
    assert f'SDK_VERSION = "{manifest["version"]}"' in stamped
    assert f'SCHEMA_SHA256 = "{schema}"' in stamped
    lock = json.loads((SDK / "package-lock.json").read_text())
    assert lock["version"] == manifest["version"] == lock["packages"][""]["version"]


def test_the_package_is_publishable_with_every_dependency_pinned() -> None:
    manifest = json.loads((SDK / "package.json").read_text())
    assert "private" not in manifest
    assert manifest["main"] == "./dist/index.js" and manifest["types"] == "./dist/index.d.ts"
    assert manifest["exports"]["."] == {"types": "./dist/index.d.ts", "default": "./dist/index.js"}
    # a bundler for browsers or React Native never meets `ws`: only the "node" condition has it
    websocket = manifest["imports"]["#websocket"]
    assert list(websocket) == ["node", "default"], "node first: conditions match in order"
    platform = (SDK / "src" / "websocket.ts").read_text()
    assert not re.search(r"^import ", platform, re.M), "the platform's WebSocket: no import"
    lock = json.loads((SDK / "package-lock.json").read_text())["packages"]
    for name, version in {**manifest["dependencies"], **manifest["devDependencies"]}.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} is pinned exactly"
        assert lock[f"node_modules/{name}"]["version"] == version, name
    ignored = (SDK / ".gitignore").read_text().split()
    assert {"dist/", "*.tgz", "node_modules/"} <= set(ignored)


KEY = "sdk-ts-secret"


@pytest.fixture(scope="module")
def keyed(redis_url: str) -> Iterator[str]:
    """A service that needs an API key (the tenant `acme`); its GraphQL URL."""
    env = {"RULES_API_KEYS": f"acme:{KEY}", "RULES_RATE_LIMIT_PER_TOKEN": "0"}
    with service_processes(redis_url, 1, {**env, "RULES_RATE_LIMIT_PER_ADDRESS": "0"}) as urls:
        yield f"{urls[0]}/graphql"


def _play(built: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    node = require("node", "apt-get install nodejs")
    return subprocess.run(
        [node, str(built / "play.js"), *args],
        cwd=built, capture_output=True, text=True, timeout=600,
        env={**{k: v for k, v in os.environ.items() if k != "RULES_API_KEY"}, **env},
    )  # fmt: skip


@slow
def test_play_tells_a_missing_api_key_from_a_malformed_one(built: Path, keyed: str) -> None:
    missing = _play(built, keyed, "pytest-keys")
    assert missing.returncode == 2, missing
    assert "needs an API key: set RULES_API_KEY or pass --api-key" in missing.stderr
    malformed = _play(built, keyed, "pytest-keys", RULES_API_KEY=f"acme:{KEY}")
    assert malformed.returncode == 2, malformed
    assert "looks like `tenant:secret`" in malformed.stderr, malformed.stderr
    assert "needs an API key" not in malformed.stderr
    wrong = _play(built, keyed, "pytest-keys", "--api-key", "not-the-secret")
    assert wrong.returncode == 2 and "refused the API key" in wrong.stderr, wrong
