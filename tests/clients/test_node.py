"""Node clients: the reference `graphql-ws` client follows a game, and `@graphql-codegen/cli`
(client preset) generates typed documents from schema/schema.graphql. The npm packages are
pinned in tests/clients/node/package-lock.json; `npm ci` runs when node_modules is stale."""

from __future__ import annotations

import asyncio
import fcntl
import json
import random
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.api.contracts import SCHEMA_DIR
from tests.clients.conftest import Service, require

NODE_DIR = Path(__file__).parent / "node"


@pytest.fixture(scope="module")
def node_modules() -> Path:
    require("node", "apt-get install nodejs")
    npm = require("npm", "apt-get install npm")
    installed = NODE_DIR / "node_modules" / ".package-lock.json"
    lock = NODE_DIR / "package-lock.json"
    with (NODE_DIR / ".npm-ci.lock").open("w") as held:  # parallel test workers install once
        fcntl.flock(held, fcntl.LOCK_EX)
        if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
            run = subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                cwd=NODE_DIR, capture_output=True, text=True, timeout=600,
            )  # fmt: skip
            assert run.returncode == 0, run.stdout + run.stderr
    return NODE_DIR / "node_modules"


DOCUMENTS = (NODE_DIR / "documents.graphql").read_text()


async def _run(
    http: httpx.AsyncClient, operation: str, variables: dict[str, Any], token: str | None = None
) -> dict[str, Any]:
    """One operation of documents.graphql (the ones codegen types), over plain HTTP."""
    headers = {"authorization": f"Bearer {token}"} if token else {}
    body = {"query": DOCUMENTS, "operationName": operation, "variables": variables}
    answer: dict[str, Any] = (await http.post("/graphql", json=body, headers=headers)).json()
    assert "errors" not in answer, answer
    data: dict[str, Any] = answer["data"]
    return data


async def _event(lines: asyncio.StreamReader) -> dict[str, Any]:
    async with asyncio.timeout(60):
        line = await lines.readline()
    assert line, "graphql-ws ended without completing"
    result: dict[str, Any] = json.loads(line)
    assert "errors" not in result, result
    event: dict[str, Any] = result["data"]["gameEvents"]
    return event


async def test_the_graphql_ws_client_receives_every_event_and_the_completion(
    node_modules: Path, service: Service
) -> None:
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        create = {"input": {"kind": "TREELINGS", "players": 2, "seed": "node"}}
        created = (await _run(http, "CreateGame", create))["createGame"]
        game, tokens = created["game"], [seat["token"] for seat in created["seats"]]
        follower = await asyncio.create_subprocess_exec(
            require("node", "apt-get install nodejs"),
            str(NODE_DIR / "subscribe.mjs"), service.websocket, game["id"], tokens[0],
            stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert follower.stdout is not None
        try:
            events = [await _event(follower.stdout)]  # subscribed: the current version
            chooser = random.Random("node")
            while game["status"] == "ACTIVE":
                token = tokens[game["toAct"][0]]
                seen = (await _run(http, "Game", {"id": game["id"]}, token))["game"]
                move = chooser.choice(seen["legalMoves"])["move"]
                apply = {"gameId": game["id"], "move": move, "expectedVersion": seen["version"]}
                result = (await _run(http, "ApplyMove", {"input": apply}, token))["applyMove"]
                assert result["__typename"] == "MoveApplied", result
                game = (await _run(http, "Game", {"id": game["id"]}))["game"]
            while events[-1]["status"] != "FINISHED":
                events.append(await _event(follower.stdout))
            async with asyncio.timeout(60):
                assert await follower.wait() == 0, "graphql-ws saw an error, not a completion"
        finally:
            if follower.returncode is None:
                follower.kill()
                await follower.wait()
    versions = [event["version"] for event in events]
    assert versions == list(range(created["game"]["version"], game["version"] + 1)), "gap-free"
    assert events[-1] == {"gameId": game["id"], "version": game["version"], "status": "FINISHED"}


def test_graphql_codegen_client_preset_generates_typed_documents(
    node_modules: Path, tmp_path: Path
) -> None:
    config = {
        "schema": str(SCHEMA_DIR / "schema.graphql"),
        "documents": [str(NODE_DIR / "documents.graphql")],
        "generates": {f"{tmp_path}/gql/": {"preset": "client"}},
    }
    (tmp_path / "codegen.json").write_text(json.dumps(config))
    run = subprocess.run(
        [node_modules / ".bin" / "graphql-codegen", "--config", tmp_path / "codegen.json"],
        cwd=NODE_DIR, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    typed = (tmp_path / "gql" / "graphql.ts").read_text()
    assert "export type GameEventsSubscription = " in typed
    assert "export type ApplyMoveMutation = " in typed
    assert "'IDEMPOTENCY_KEY_REUSED'" in typed, "RejectCode is typed with every code"
    assert (tmp_path / "gql" / "gql.ts").exists()
