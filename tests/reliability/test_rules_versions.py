"""Rules versions side by side (service/games/__init__.py, tools/freeze_rules.py): a game is
played to its end under the rules it was created with.

The next release is made by the test from a copy of `service/`: Treelings frozen as version 1
(`freeze_rules`), then version 2 changes a rule (the Festival card on top of the pile, not
under `festival_depth` cards: TG-1 changed). A game this release created under version 1 is
played to its end by the next release's processes, under version 1, while a new game there is
created under version 2; the next release's worker archives the finished game, and its record,
read back from the archive, verifies there and on this release.
"""

from __future__ import annotations

import importlib.util
import random
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.archive.embedded import EmbeddedPostgres
from service.core.records.documents import verify
from service.settings import Settings
from service.store import RedisStore, connect
from tests.conftest import own_redis
from tests.support.processes import service_processes
from tests.support.waiting import until
from tests.support.workers import worker_process

pytestmark = pytest.mark.slow

TOOL = Path(__file__).parents[2] / "tools" / "freeze_rules.py"


def freeze(package: str, games: Path) -> Path:
    """tools/freeze_rules.py's `freeze` (tools/ is no package)."""
    spec = importlib.util.spec_from_file_location("freeze_rules", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    frozen: Path = tool.freeze(package, games)
    return frozen


SEED = "rules-versions"
GAME = (
    "query G($id: ID!) { game(id: $id) { version rulesVersion status toAct legalMoves { move } } }"
)
CATALOG = "{ catalog { kind rulesVersion rulesVersions } }"
CREATE = """
mutation C($input: CreateGameInput!) {
  createGame(input: $input) { game { id rulesVersion } seats { seat token } }
}"""
APPLY = """
mutation A($input: ApplyMoveInput!) {
  applyMove(input: $input) { __typename ... on MoveApplied { game { version status } } }
}"""
RECORD = "query R($id: ID!) { exportGame(gameId: $id) }"
VERIFY = "query V($r: JSON!) { verifyGameRecord(record: $r) { valid difference { reason } } }"


def _next_release(into: Path, compatible: bool) -> str:
    """This tree with Treelings frozen as version 1 and version 2 next: the same rules
    (`compatible`), or the Festival card moved to the top of the pile (TG-1 changed)."""
    source = Path(__file__).parents[2] / "service"
    shutil.copytree(source, into / "service", ignore=shutil.ignore_patterns("__pycache__"))
    package = into / "service" / "games" / "treelings"
    shutil.rmtree(package / "earlier", ignore_errors=True)
    freeze("treelings", into / "service" / "games")
    game = package / "game.py"
    game.write_text(game.read_text().replace("\nRULES_VERSION = 1\n", "\nRULES_VERSION = 2\n"))
    if compatible:
        return str(into)
    rules = package / "rules.py"
    changed = rules.read_text().replace("depth = CARDS.festival_depth", "depth = 0")
    assert changed != rules.read_text(), "rules.py changed shape: update this test's patch"
    rules.write_text(changed)
    return str(into)


async def _gql(
    http: httpx.AsyncClient, url: str, query: str, variables: Any, token: str = ""
) -> Any:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    response = await http.post(
        f"{url}/graphql", json={"query": query, "variables": variables}, headers=headers
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert "errors" not in body, body
    return body["data"]


async def _play(
    http: httpx.AsyncClient, url: str, game_id: str, tokens: list[str], moves: int
) -> Any:
    """Up to `moves` random legal decisions (all of them if None); the game as last read."""
    chooser = random.Random(SEED)
    for _ in range(moves):
        game = (await _gql(http, url, GAME, {"id": game_id}, tokens[0]))["game"]
        if game["status"] != "ACTIVE":
            return game
        seat = game["toAct"][0]
        seen = (await _gql(http, url, GAME, {"id": game_id}, tokens[seat]))["game"]
        move = chooser.choice(seen["legalMoves"])["move"]
        variables = {"input": {"gameId": game_id, "move": move, "expectedVersion": seen["version"]}}
        applied = (await _gql(http, url, APPLY, variables, tokens[seat]))["applyMove"]
        assert applied["__typename"] == "MoveApplied", applied
    return (await _gql(http, url, GAME, {"id": game_id}, tokens[0]))["game"]


@pytest.mark.parametrize("compatible", [False, True])
async def test_a_game_finishes_under_its_rules_after_a_release_changes_them(
    tmp_path: Path, compatible: bool
) -> None:
    """Changed rules: the game finishes under version 1. The same rules under a new version:
    its history replays the same, so it moves forward to version 2 with its next decision."""
    release = _next_release(tmp_path, compatible)
    played_under = 2 if compatible else 1
    with own_redis() as url, EmbeddedPostgres() as database:
        env = {
            "DATABASE_URL": database.url,
            "RULES_IDEMPOTENCY_GRACE": "0",
            "RULES_RATE_LIMIT_PER_TOKEN": "0",
            "RULES_RATE_LIMIT_PER_ADDRESS": "0",
        }
        async with httpx.AsyncClient(timeout=60) as http:
            with service_processes(url, 1, env) as (this,):
                created = (
                    await _gql(
                        http,
                        this,
                        CREATE,
                        {"input": {"kind": "TREELINGS", "players": 2, "seed": SEED}},
                    )
                )["createGame"]
                game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
                assert created["game"]["rulesVersion"] == 1
                await _play(http, this, game_id, tokens, 3)

            # a try the archive missed (a store slow to answer on a busy machine) comes again soon
            worker_env = {
                **env,
                "RULES_WORKER_POLL_SECONDS": "0.2",
                "RULES_ARCHIVE_LEASE_SECONDS": "2",
            }
            with (
                service_processes(url, 1, env, release=release) as (following,),
                worker_process(url, release, **worker_env) as worker,
            ):
                catalog = (await _gql(http, following, CATALOG, {}))["catalog"]
                treelings = next(k for k in catalog if k["kind"] == "TREELINGS")
                assert (treelings["rulesVersion"], treelings["rulesVersions"]) == (2, [1, 2])
                fresh = (
                    await _gql(
                        http,
                        following,
                        CREATE,
                        {"input": {"kind": "TREELINGS", "players": 2, "seed": SEED}},
                    )
                )["createGame"]
                assert fresh["game"]["rulesVersion"] == 2, "new games get the new rules"

                over = await _play(http, following, game_id, tokens, 1000)
                assert (over["status"], over["rulesVersion"]) == ("FINISHED", played_under)
                store = RedisStore(connect(Settings(), url), Settings())
                try:
                    await until(lambda: _gone(store, game_id), "the finished game archived", 120)
                except AssertionError as late:
                    raise AssertionError(f"{late}; the worker logged:\n{worker.output()}") from None
                finally:
                    await store.close()
                record = (await _gql(http, following, RECORD, {"id": game_id}))["exportGame"]
                assert record["rules"] == played_under
                checked = (await _gql(http, following, VERIFY, {"r": record}))["verifyGameRecord"]
                assert checked == {"valid": True, "difference": None}
        # this release knows version 1 only: the record verifies here, so it was played under
        # version 1 to its end (the Festival card moved in version 2: its deal replays otherwise)
        assert verify(record).valid != compatible


async def _gone(store: RedisStore, game_id: str) -> bool:
    return not await store.redis.exists(f"g:{{{game_id}}}")
