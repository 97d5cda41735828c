"""A worker drains on SIGTERM: it takes no new job, finishes the one in hand
(decision, commit, acknowledgement) and exits 0; a job that does not finish within
RULES_WORKER_DRAIN_SECONDS is left pending for another worker, and the worker exits anyway."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from service.app import create_app
from service.core.access.keys import DEFAULT_TENANT
from service.settings import Settings
from service.store.embedded import EmbeddedRedis
from service.store.jobs import GROUP, job_key, lane_of
from tests.conftest import Api, client_for
from tests.support.gql import CREATE_WITH_BOTS
from tests.support.play import bot_seats, create_game
from tests.support.workers import worker_process

SETTINGS = Settings(rate_limit_per_token=0, rate_limit_per_address=0)
# A SEARCH decision of a few seconds (500 iterations take ~100 ms on an idle core): long
# enough to hold Redis's writes once it has begun, short enough to finish in the drain.
LONG = "20000"
STUCK = str(10**9)  # a decision that never ends


@pytest.fixture
async def setup() -> AsyncIterator[tuple[str, Api, Redis]]:
    """One Redis of its own (CLIENT PAUSE holds the commit), the API and a plain client."""
    server = EmbeddedRedis().start()
    client = Redis.from_url(server.url)
    try:
        async with client_for(create_app(SETTINGS, server.url)) as http:
            yield server.url, Api(http), client
    finally:
        await client.execute_command("CLIENT", "UNPAUSE")
        await client.aclose()
        server.cleanup()


async def _bot_game(api: Api) -> str:
    created = await create_game(
        api.http, document=CREATE_WITH_BOTS, seed="drain", bots=bot_seats({0: "SEARCH"})
    )
    game_id: str = created["game"]["id"]
    return game_id


async def _pending(client: Redis, game_id: str) -> int:
    summary = await client.xpending(job_key(lane_of(game_id), DEFAULT_TENANT), GROUP)
    return int(summary["pending"])


async def test_sigterm_finishes_the_job_in_hand_commits_acknowledges_and_exits_0(
    setup: tuple[str, Api, Redis],
) -> None:
    url, api, client = setup
    # REDIS_TIMEOUT: the held commit waits for Redis instead of failing
    with worker_process(
        url, RULES_BOT_ITERATIONS=LONG, RULES_WORKER_DRAIN_SECONDS="120", REDIS_TIMEOUT="120",
        LOG_LEVEL="debug",
    ) as worker:  # fmt: skip
        game_id = await _bot_game(api)
        await worker.until_logged(f"{game_id} v0 seat 0: deciding")
        # Writes wait until told to go on: the decision's commit cannot land before SIGTERM.
        await client.execute_command("CLIENT", "PAUSE", 120_000, "WRITE")
        worker.process.send_signal(signal.SIGTERM)
        await worker.until_logged("draining")
        assert worker.process.poll() is None, worker.output()
        assert int(await client.hget(f"g:{{{game_id}}}", "v") or 0) == 0
        await client.execute_command("CLIENT", "UNPAUSE")
        exit_code = await asyncio.to_thread(worker.process.wait, 120)
        log = worker.stop()
    assert exit_code == 0, log
    assert f"{game_id} v0 seat 0: played" in log, log
    assert int(await client.hget(f"g:{{{game_id}}}", "v") or 0) == 1
    assert await _pending(client, game_id) == 0, "the job was not acknowledged"
    assert "Traceback" not in log, log


async def test_a_job_that_outlasts_the_drain_is_left_pending_and_the_worker_exits(
    setup: tuple[str, Api, Redis],
) -> None:
    url, api, client = setup
    with worker_process(
        url, RULES_BOT_ITERATIONS=STUCK, RULES_WORKER_DRAIN_SECONDS="1", LOG_LEVEL="debug"
    ) as worker:
        game_id = await _bot_game(api)
        await worker.until_logged(f"{game_id} v0 seat 0: deciding")
        worker.process.send_signal(signal.SIGTERM)
        # before: the worker waited for the decision, forever
        exit_code = await asyncio.to_thread(worker.process.wait, 120)
        log = worker.stop()
    assert exit_code == 0, log
    assert "not finished within the drain (1 s); left pending" in log, log
    assert await _pending(client, game_id) == 1, "the job must stay for another worker"
    assert int(await client.hget(f"g:{{{game_id}}}", "v") or 0) == 0
    assert "Traceback" not in log, log
