"""Fair bot turns across tenants: how long one tenant's bot turn waits
behind another tenant's backlog.

    python -m loadtests.fairness [--games 300]

It starts a private redis-server, the service (uvicorn) and one worker process, both with two
tenants (RULES_API_KEYS `a:...,b:...`). Tenant a creates `--games` 4-player Treelings games
whose seats 0-2 are SEARCH bots (seat 3 human): a backlog of three bot turns per game, more
than the one worker plays in minutes. Once they are created, tenant b creates one 2-player
game whose seat 0 is a SEARCH bot, and the script times how long until that bot's move is
committed (the game's version leaves 0), and how many of tenant a's jobs were still queued
then. Target: 2 s or less.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from contextlib import ExitStack
from typing import Any

import httpx
from redis.asyncio import Redis

from loadtests.bots import workers
from loadtests.servers import asgi
from service.store.embedded import EmbeddedRedis
from service.store.jobs import LANES, job_key

KEYS = {"a": "a-secret", "b": "b-secret"}
CREATE = """mutation C($input: CreateGameInput!) { createGame(input: $input) {
  game { id } } }"""
VERSION = "query V($id: ID!) { game(id: $id) { version } }"


async def _gql(http: httpx.AsyncClient, tenant: str, query: str, variables: Any) -> Any:
    answer = await http.post(
        "/graphql",
        json={"query": query, "variables": variables},
        headers={"x-api-key": KEYS[tenant]},
    )
    body = answer.json()
    if "errors" in body:
        raise RuntimeError(body["errors"])
    return body["data"]


async def _create(http: httpx.AsyncClient, tenant: str, players: int, bots: int) -> str:
    seats = [{"seat": seat, "strategy": "SEARCH"} for seat in range(bots)]
    variables = {"input": {"kind": "TREELINGS", "players": players, "bots": seats}}
    return str((await _gql(http, tenant, CREATE, variables))["createGame"]["game"]["id"])


async def _queued(redis: Redis, tenant: str) -> int:
    return sum([await redis.xlen(job_key(lane, tenant)) for lane in range(LANES)])


async def measure(base: str, redis_url: str, games: int) -> dict[str, Any]:
    redis = Redis.from_url(redis_url)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for _ in range(games):
            await _create(http, "a", 4, 3)
        backlog = await _queued(redis, "a")
        started = time.monotonic()
        game_id = await _create(http, "b", 2, 1)
        while (await _gql(http, "b", VERSION, {"id": game_id}))["game"]["version"] == 0:
            await asyncio.sleep(0.01)
        waited = time.monotonic() - started
        left = await _queued(redis, "a")
    await redis.aclose()
    return {
        "a_games": games,
        "a_jobs_queued_when_b_created": backlog,
        "b_bot_turn_seconds": round(waited, 3),
        "a_jobs_queued_when_b_played": left,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    os.environ["RULES_API_KEYS"] = ",".join(f"{tenant}:{key}" for tenant, key in KEYS.items())
    with ExitStack() as stop:
        redis = EmbeddedRedis().start()
        stop.callback(redis.cleanup)
        service = stop.enter_context(asgi("service", "service.app:from_env", redis.url))
        stop.enter_context(workers(redis.url, 1))
        print(asyncio.run(measure(service.url, redis.url, args.games)))


if __name__ == "__main__":
    main()
