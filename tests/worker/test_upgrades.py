"""A worker meets a game a newer release wrote (docs/reliability.md, "Rolling upgrades"): its
bot job is left pending for a worker of that release (not acknowledged, not set aside), its
due clock stays claimed until the lease lapses, each logged once and counted, and the loop goes
on. The newer worker taking the job over: tests/reliability/test_rolling_upgrade.py."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

import httpx
import msgspec
import pytest

from service import metrics
from service.app import create_app
from service.core.access.keys import DEFAULT_TENANT
from service.settings import Settings
from service.store import FORMAT
from service.store.indexes import clock_key
from service.store.jobs import GROUP, job_key, lane_of
from service.store.quarantine import listed
from service.worker import Worker
from tests.conftest import client_for, own_redis
from tests.support.gql import CREATE_WITH_BOTS
from tests.support.play import bot_seats, create_game
from tests.support.waiting import until

SETTINGS = Settings(rate_limit_per_token=0, rate_limit_per_address=0, worker_reclaim_seconds=0.2)
CLOCKED = """
mutation Create($input: CreateGameInput!) { createGame(input: $input) { game { id clock { deadline } } } }"""


@pytest.fixture
async def isolated() -> AsyncIterator[tuple[httpx.AsyncClient, Worker]]:
    """The API and a worker (in this process, its loops not started) on a Redis of their own."""
    with own_redis() as url:
        async with client_for(create_app(SETTINGS, url)) as http:
            worker = Worker(SETTINGS, url, "older")
            await worker.queue.ensure_groups()
            yield http, worker
            await worker.store.close()


async def _newer(worker: Worker, game_id: str) -> bytes:
    """The game's record as the next release writes it; the bytes stored."""
    key = f"g:{{{game_id}}}"
    fields = msgspec.msgpack.decode(await worker.store.redis.hget(key, "r"))
    newer = msgspec.msgpack.encode([FORMAT + 1, *fields[1:], "next release"])
    await worker.store.redis.hset(key, mapping={"r": newer, "w": FORMAT + 1})
    return newer


def _left(loop: str) -> float:
    value: float = metrics.LEFT_FOR_NEWER.labels(loop)._value.get()
    return value


async def test_a_bot_job_of_a_newer_game_is_left_pending_for_a_newer_worker(
    isolated: tuple[httpx.AsyncClient, Worker], caplog: pytest.LogCaptureFixture
) -> None:
    http, worker = isolated
    created = await create_game(http, document=CREATE_WITH_BOTS, bots=bot_seats({0: "RANDOM"}))
    game_id = created["game"]["id"]
    stored = await _newer(worker, game_id)
    lane, left = lane_of(game_id), _left("job")
    with caplog.at_level(logging.INFO, logger="service.worker"):
        for _ in range(2):  # taken again after the reclaim interval: logged once
            job = await worker.queue.read(lane, DEFAULT_TENANT) or await until(
                lambda: worker.queue.reclaim(lane, DEFAULT_TENANT), "the job reclaimed"
            )
            assert job is not None and job.game_id == game_id
            assert await worker.play(job) == "left"
    assert _left("job") == left + 2
    assert caplog.text.count(f"left game {game_id} for a newer release") == 1, caplog.text
    pending = await worker.store.redis.xpending(job_key(lane, DEFAULT_TENANT), GROUP)
    assert pending["pending"] == 1, "not acknowledged: a newer worker takes it over"
    assert await listed(worker.store.redis) == [], "not set aside"
    assert await worker.store.redis.hget(f"g:{{{game_id}}}", "r") == stored


async def test_a_due_clock_of_a_newer_game_stays_claimed_for_a_newer_sweeper(
    isolated: tuple[httpx.AsyncClient, Worker], caplog: pytest.LogCaptureFixture
) -> None:
    http, worker = isolated
    clock = {"perDecisionSeconds": 1, "onTimeout": "FORFEIT"}
    game: dict[str, Any] = (await create_game(http, document=CLOCKED, clock=clock))["game"]
    stored = await _newer(worker, game["id"])
    deadline = datetime.fromisoformat(game["clock"]["deadline"]).timestamp()
    await until(lambda: time.time() > deadline, "the deadline passed")
    left = _left("clock")
    with caplog.at_level(logging.INFO, logger="service.worker"):
        await worker._clocks()
    assert _left("clock") == left + 1
    assert f"left game {game['id']} for a newer release" in caplog.text
    score = await worker.store.redis.zscore(
        clock_key(lane_of(game["id"]), DEFAULT_TENANT), game["id"]
    )
    assert score is not None and score > deadline, "claimed for a lease, then any sweeper's"
    assert await listed(worker.store.redis) == [], "not set aside"
    assert await worker.store.redis.hget(f"g:{{{game['id']}}}", "r") == stored
