"""Blast walls: a game whose record cannot be read stops nobody else.

Two tenants share a real worker process. One tenant's clocked game and one of its bot games
get garbage for a record; the worker sets each aside once (logged in one line, listed with
its reason, dropped from its loop) and goes on: the other tenant's bot turn is played and its
1 s FORFEIT clock fires. The figures printed are those of docs/reliability.md.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from service.settings import Settings
from service.store import RedisStore, connect
from service.store.embedded import EmbeddedRedis
from service.store.indexes import clock_key
from service.store.jobs import lane_of
from service.store.quarantine import listed, take
from service.worker.quarantine import retry
from tests.support.play import bot_seats, create_game
from tests.support.tenants import ACME, GLOBEX, KEYS, tenants_app
from tests.support.waiting import until
from tests.support.workers import worker_process

CREATE = """
mutation Create($input: CreateGameInput!) {
  createGame(input: $input) { game { id version toAct clock { deadline } } seats { token } }
}"""
READ = "query Read($id: ID!) { game(id: $id) { version status outcome { reason } } }"
GARBAGE = b"\xc1 garbage"


@pytest.fixture
async def server() -> AsyncIterator[str]:
    """A Redis of this test's own: no other worker takes its jobs."""
    redis = EmbeddedRedis().start()
    try:
        yield redis.url
    finally:
        redis.cleanup()


async def _read(http: httpx.AsyncClient, game_id: str) -> dict[str, Any]:
    response = await http.post("/graphql", json={"query": READ, "variables": {"id": game_id}})
    game: dict[str, Any] = response.json()["data"]["game"]
    return game


async def test_a_corrupt_record_stops_no_other_tenant(server: str) -> None:
    redis = Redis.from_url(server)
    async with tenants_app(server) as http:
        clocked = (await create_game(http, document=CREATE, key=ACME, clock=_clock(1)))["game"]
        botted = await create_game(http, document=CREATE, key=ACME, bots=bot_seats({0: "RANDOM"}))
        broken = [clocked["id"], botted["game"]["id"]]
        for game_id in broken:
            await redis.hset(f"g:{{{game_id}}}", "r", GARBAGE)
        await until(lambda: time.time() > _deadline(clocked), "the deadline passed")
        with worker_process(server, RULES_API_KEYS=",".join(KEYS)) as worker:
            key, deadline = clock_key(lane_of(broken[0]), "acme"), _deadline(clocked)

            async def met() -> bool:  # claimed by the sweep (old code) or removed (new)
                score = await redis.zscore(key, broken[0])
                return score is None or score > deadline

            await until(met, "the sweep met the corrupt game")
            started = time.monotonic()
            other = (await create_game(http, document=CREATE, key=GLOBEX, clock=_clock(1)))["game"]
            bot = await create_game(
                http, document=CREATE, key=GLOBEX, bots=bot_seats({0: "RANDOM"})
            )

            async def played() -> float | None:
                seen = await _read(http, bot["game"]["id"])
                return time.monotonic() - started if seen["version"] > 0 else None

            bot_after = await until(played, "another tenant's bot turn played")
            # no read of the clocked game meanwhile: a read would apply the timeout itself
            await worker.until_logged(f"clock of {other['id']} swept")
            late = time.time() - _deadline(other)
            print(f"bot turn played after {bot_after:.2f} s; clock fired {late:.2f} s late")

            aside = dict(await listed(redis))
            assert set(broken) <= set(aside), aside
            assert aside[broken[0]].loop == "clock" and aside[broken[1]].loop == "job"
            assert all(aside[g].reason == f"record of game {g} unreadable" for g in broken)
            assert await redis.zscore(key, broken[0]) is None  # the sweep will not meet it again
            logged = worker.output()
        for game_id in broken:
            assert logged.count(f"record of game {game_id} unreadable (") == 1, logged
            assert logged.count(f"game {game_id} set aside") == 1, logged
        assert "Traceback" not in logged
    await redis.aclose()


async def test_a_retried_game_that_still_fails_goes_back_with_its_reason(server: str) -> None:
    settings = Settings()
    store = RedisStore(connect(settings, server), settings)
    async with tenants_app(server) as http:
        game = (await create_game(http, document=CREATE, key=ACME, clock=_clock(3600)))["game"]
    record = await store.redis.hget(f"g:{{{game['id']}}}", "r")
    await store.redis.hset(f"g:{{{game['id']}}}", "r", GARBAGE)
    await store.redis.zrem(clock_key(lane_of(game["id"]), "acme"), game["id"])  # as the sweep does
    assert (await retry(store, game["id"])).startswith("still set aside: retried: record of")
    assert [g for g, _ in await listed(store.redis)] == [game["id"]]

    await store.redis.hset(f"g:{{{game['id']}}}", "r", record)  # repaired
    assert await retry(store, game["id"]) == "released to the workers"
    assert await listed(store.redis) == [] and not await take(store.redis, game["id"])
    deadline = await store.redis.zscore(clock_key(lane_of(game["id"]), "acme"), game["id"])
    assert deadline == pytest.approx(_deadline(game))
    await store.close()


def _deadline(game: dict[str, Any]) -> float:
    return datetime.fromisoformat(game["clock"]["deadline"]).timestamp()


def _clock(seconds: float) -> dict[str, Any]:
    return {"perDecisionSeconds": seconds, "onTimeout": "FORFEIT"}
