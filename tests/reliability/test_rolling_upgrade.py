"""Two releases side by side on one Redis, both directions (docs/reliability.md,
"Rolling upgrades"): this tree, and the next release, made by the test from a copy of
`service/` whose Record has one more trailing field and whose FORMAT is one higher. Each runs
as real service and worker processes.

- A game the next release created reads fine on this one, which refuses to write it (typed,
  retryable) and loses nothing: the next release then plays the same keyed move.
- The next release writes this release's games (they become its own), and this release still
  writes the games it created.
- This release's worker leaves the next release's bot turn pending (logged once, its loop goes
  on with other games) and the next release's worker takes it over and plays it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from redis.asyncio import Redis

from service.store import FORMAT, Record
from tests.conftest import own_redis
from tests.support.processes import service_processes
from tests.support.waiting import until
from tests.support.workers import worker_process

pytestmark = pytest.mark.slow

NEXT_FIELD = "kept by the next release"
CREATE = """
mutation C($input: CreateGameInput!) {
  createGame(input: $input) { game { id version } seats { seat token } }
}"""
READ = "query R($id: ID!) { game(id: $id) { version toAct legalMoves { move } } }"
APPLY = """
mutation A($input: ApplyMoveInput!) {
  applyMove(input: $input) { __typename ... on MoveApplied { replayed game { version } } }
}"""
WORKER = {"RULES_WORKER_RECLAIM_SECONDS": "1", "RULES_WORKER_POLL_SECONDS": "0.2"}


def _next_release(into: Path) -> str:
    """A copy of this tree's `service/` as the next release: one more Record field at the
    end (with a value every record it writes carries) and FORMAT one higher."""
    source = Path(__file__).parents[2] / "service"
    shutil.copytree(source, into / "service", ignore=shutil.ignore_patterns("__pycache__"))
    records = into / "service" / "store" / "records.py"
    text = records.read_text()
    text, bumped = re.subn(r"^FORMAT = \d+$", f"FORMAT = {FORMAT + 1}", text, flags=re.M)
    field = f'    next_release: str = "{NEXT_FIELD}"\n\n    def status(self) -> str:'
    text, added = re.subn(r"\n    def status\(self\) -> str:", "\n" + field, text, count=1)
    assert bumped == added == 1, "records.py changed shape: update this test's patch"
    records.write_text(text)
    return str(into)


async def _gql(
    http: httpx.AsyncClient, url: str, query: str, variables: Any, token: str = ""
) -> Any:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    response = await http.post(
        f"{url}/graphql", json={"query": query, "variables": variables}, headers=headers
    )
    assert response.status_code == 200, response.text
    return response.json()


async def _create(http: httpx.AsyncClient, url: str, **fields: Any) -> tuple[str, list[str]]:
    variables = {"input": {"kind": "TREELINGS", "players": 2, **fields}}
    created = (await _gql(http, url, CREATE, variables))["data"]["createGame"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    return created["game"]["id"], [tokens.get(seat, "") for seat in range(2)]


async def _move(
    http: httpx.AsyncClient, url: str, game_id: str, tokens: list[str], key: str
) -> dict[str, Any]:
    """The first legal move of the seat to act, with an idempotency key, as `url` answers it."""
    seen = (await _gql(http, url, READ, {"id": game_id}))["data"]["game"]
    seat = seen["toAct"][0]
    move = (await _gql(http, url, READ, {"id": game_id}, tokens[seat]))["data"]["game"]
    variables = {
        "input": {"gameId": game_id, "move": move["legalMoves"][0]["move"], "idempotencyKey": key}
    }
    answer: dict[str, Any] = await _gql(http, url, APPLY, variables, tokens[seat])
    return answer


def _code(answer: dict[str, Any]) -> str | None:
    errors = answer.get("errors")
    return errors[0]["extensions"]["code"] if errors else None


async def _stored(redis: Redis, game_id: str) -> tuple[Any, ...]:
    kept = await redis.hgetall(f"g:{{{game_id}}}")
    return tuple(sorted(kept.items())), tuple(await redis.lrange(f"g:{{{game_id}}}:h", 0, -1))


async def _fields(redis: Redis, game_id: str) -> list[Any]:
    """The stored record as the list msgpack holds (every field, known here or not)."""
    fields: list[Any] = msgspec.msgpack.decode(await redis.hget(f"g:{{{game_id}}}", "r"))
    return fields


def _by_the_next_release(fields: list[Any]) -> bool:
    own = len(msgspec.structs.fields(Record))
    return fields[0] == FORMAT + 1 and len(fields) == own + 1 and fields[-1] == NEXT_FIELD


async def test_two_releases_share_the_games_and_lose_nothing(tmp_path: Path) -> None:
    release = _next_release(tmp_path)
    with (
        own_redis() as redis_url,
        service_processes(redis_url, 1) as [older],
        service_processes(redis_url, 1, release=release) as [newer],
    ):
        redis = Redis.from_url(redis_url)
        async with httpx.AsyncClient(timeout=60) as http:
            # a game the next release created: read here, never written here, nothing lost
            game_id, tokens = await _create(http, newer)
            assert _by_the_next_release(await _fields(redis, game_id))
            before = await _stored(redis, game_id)
            seen = (await _gql(http, older, READ, {"id": game_id}, tokens[0]))["data"]["game"]
            assert seen["version"] == 0 and seen["legalMoves"]
            assert _code(await _move(http, older, game_id, tokens, "k1")) == "UPGRADE_IN_PROGRESS"
            move = seen["legalMoves"][0]["move"]
            rest = await http.post(
                f"{older}/v1/games/{game_id}/moves",
                json={"move": move},
                headers={"authorization": f"Bearer {tokens[0]}", "idempotency-key": "k1"},
            )
            assert rest.status_code == 503 and rest.json()["code"] == "UPGRADE_IN_PROGRESS"
            assert rest.headers["retry-after"]
            assert await _stored(redis, game_id) == before, "nothing written"
            retried = await _move(http, newer, game_id, tokens, "k1")  # the client's retry
            assert retried["data"]["applyMove"]["game"]["version"] == 1, retried
            assert _by_the_next_release(await _fields(redis, game_id))

            # the next release writes this release's games, which become its own
            game_id, tokens = await _create(http, older)
            assert (await _fields(redis, game_id))[0] == FORMAT
            played = await _move(http, newer, game_id, tokens, "k2")
            assert played["data"]["applyMove"]["__typename"] == "MoveApplied", played
            assert _by_the_next_release(await _fields(redis, game_id))
            assert _code(await _move(http, older, game_id, tokens, "k3")) == "UPGRADE_IN_PROGRESS"

            # this release still writes the games it created
            game_id, tokens = await _create(http, older)
            for key in ("k4", "k5"):
                played = await _move(http, older, game_id, tokens, key)
                assert played["data"]["applyMove"]["__typename"] == "MoveApplied", played
            assert (await _fields(redis, game_id))[0] == FORMAT

            # bot turns: this release's worker leaves the next release's, which its worker plays
            bots = [{"seat": 0, "strategy": "RANDOM"}]
            newer_bot, _ = await _create(http, newer, bots=bots)
            with worker_process(redis_url, **WORKER) as worker:
                await worker.until_logged(f"left game {newer_bot} for a newer release")
                older_bot, _ = await _create(http, older, bots=bots)

                async def version(url: str, game_id: str) -> int:
                    read = await _gql(http, url, READ, {"id": game_id})
                    found: int = read["data"]["game"]["version"]
                    return found

                await until(lambda: version(older, older_bot), "this release's bot turn played")
                assert await version(older, newer_bot) == 0
                with worker_process(redis_url, release, **WORKER) as next_worker:
                    await until(lambda: version(newer, newer_bot), "the next release's bot turn")
                    next_logged = next_worker.stop()
                logged = worker.stop()
            assert _by_the_next_release(await _fields(redis, newer_bot))
            assert logged.count(f"left game {newer_bot} for a newer release") == 1, logged
            assert "Traceback" not in logged + next_logged
        await redis.aclose()
