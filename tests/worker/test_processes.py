"""`python -m service.worker` with RULES_WORKER_PROCESSES=2: two worker processes that think at
the same time, each with its own metrics port, stopped together by SIGTERM, and the whole set
ending as soon as one of them dies (so that a supervisor restarts it); and how many processes
"one per core" means."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from pathlib import Path

import httpx
import pytest
from redis.exceptions import ResponseError

from service.app import create_app
from service.core.access.keys import DEFAULT_TENANT
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.embedded import free_port
from service.store.jobs import GROUP, WAKE, job_key, lane_of
from service.worker.processes import quota_cores, usable_cores
from tests.conftest import Api, client_for, own_redis
from tests.support.gql import CREATE_WITH_BOTS
from tests.support.play import bot_seats, create_game, until_seat_acts
from tests.support.waiting import until
from tests.support.workers import WorkerProcess, worker_process

SETTINGS = Settings(rate_limit_per_token=0, rate_limit_per_address=0)
STUCK = str(10**9)  # SEARCH iterations: a decision that never ends (GREEDY ignores them)


@pytest.fixture
async def isolated() -> AsyncIterator[tuple[str, Api, RedisStore]]:
    """A Redis of its own, so that only this test's workers take its jobs."""
    with own_redis() as url:
        store = RedisStore(connect(SETTINGS, url), SETTINGS)
        async with client_for(create_app(SETTINGS, url)) as http:
            yield url, Api(http), store
        await store.close()


def _two_free_ports() -> int:
    """A port p such that p and p + 1 are free (worker i serves /metrics on p + i)."""
    while True:
        port = free_port()
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
        return port


def _children(pid: int) -> list[int]:
    """The worker processes `pid` started (not multiprocessing's resource tracker)."""
    children = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return [c for c in children if b"resource_tracker" not in _cmdline(c)]


def _cmdline(pid: int) -> bytes:
    with suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    return b""


@contextmanager
def _worker_set(url: str, port: int, **settings: str) -> Iterator[WorkerProcess]:
    """Two worker processes under one parent; every one of them killed on the way out."""
    with worker_process(
        url, RULES_WORKER_PROCESSES="2", RULES_WORKER_METRICS_PORT=str(port), **settings
    ) as workers:
        children: list[int] = []
        try:
            yield workers
        finally:
            with suppress(OSError):
                children = _children(workers.process.pid)
            for child in children:
                with suppress(ProcessLookupError):
                    os.kill(child, signal.SIGKILL)


@asynccontextmanager
async def _serving_set(url: str, **settings: str) -> AsyncIterator[WorkerProcess]:
    """A worker set whose two processes both serve their metrics. Another test process may take
    one of the two free ports between the probe and the workers' bind: then the set ends at once
    and starts again on other ports."""
    for _ in range(5):
        port = _two_free_ports()
        with _worker_set(url, port, **settings) as workers:
            try:
                for index in range(2):
                    await until(
                        lambda at=port + index: _serving(workers, at),
                        f"worker {index} serves",
                    )
            except _PortTaken:
                continue
            yield workers
            return
    raise AssertionError("no two free ports in five tries")


class _PortTaken(Exception):
    pass


async def _serving(workers: WorkerProcess, port: int) -> str | None:
    """The metrics of the worker on `port`, once it serves them (the set must still run)."""
    if workers.process.poll() is not None:
        output = workers.output()
        if "Address already in use" in output:
            raise _PortTaken
        raise AssertionError(output)
    try:
        async with httpx.AsyncClient() as http:
            return (await http.get(f"http://127.0.0.1:{port}/metrics")).text
    except httpx.HTTPError:
        return None


async def _listening(store: RedisStore, count: int) -> bool:
    """Whether `count` workers wait for wake-ups (each is then past its start-up)."""
    ((_, listeners),) = await store.redis.pubsub_numsub(WAKE)
    return bool(listeners == count)


async def _holder(store: RedisStore, game_id: str) -> str | None:
    """The consumer (`<host>-<pid>`) holding the game's job, once one took it."""
    try:
        pending = await store.redis.xpending(job_key(lane_of(game_id), DEFAULT_TENANT), GROUP)
    except ResponseError:  # no consumer group yet
        return None
    consumers = pending["consumers"]
    return str(consumers[0]["name"].decode()) if len(consumers) == 1 else None


async def test_two_worker_processes_think_at_once_and_the_set_ends_when_one_dies(
    isolated: tuple[str, Api, RedisStore],
) -> None:
    url, api, store = isolated
    async with _serving_set(url, RULES_BOT_ITERATIONS=STUCK) as workers:
        stuck = await create_game(
            api.http, document=CREATE_WITH_BOTS, seed="stuck", bots=bot_seats({0: "SEARCH"})
        )
        stuck_game = stuck["game"]["id"]
        holder = await until(lambda: _holder(store, stuck_game), "a worker took the job")
        stuck = int(holder.rpartition("-")[2])
        assert stuck in _children(workers.process.pid)
        # the other process is free: it plays this bot's turn while the first one thinks
        free = await create_game(
            api.http, document=CREATE_WITH_BOTS, seed="free", bots=bot_seats({0: "GREEDY"})
        )
        game_id, token = free["game"]["id"], free["seats"][0]["token"]
        seen = await until_seat_acts(api, game_id, token, 1)
        assert seen["version"] >= 1
        (free,) = set(_children(workers.process.pid)) - {stuck}
        os.kill(stuck, signal.SIGKILL)
        assert await asyncio.to_thread(workers.process.wait, 60) == 1
        with pytest.raises(ProcessLookupError):
            os.kill(free, 0)
        log = workers.stop()
    assert f"{game_id} v0 seat 0: played" in log, log


async def test_sigterm_stops_every_worker_process_and_the_set_exits_cleanly(
    isolated: tuple[str, Api, RedisStore],
) -> None:
    url, _, store = isolated
    async with _serving_set(url) as workers:
        await until(lambda: _listening(store, 2), "both workers are running")
        children = _children(workers.process.pid)
        assert len(children) == 2
        workers.process.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(workers.process.wait, 60) == 0, workers.output()
        for child in children:
            with pytest.raises(ProcessLookupError):
                os.kill(child, 0)
        log = workers.stop()
    assert log.count("stopped") == 2, log


def test_a_cpu_quota_counts_in_whole_cores_rounded_up() -> None:
    assert quota_cores("max", "100000") is None  # cgroup v2, no limit
    assert quota_cores("-1", "100000") is None  # cgroup v1, no limit
    assert quota_cores("150000", "100000") == 2  # --cpus=1.5
    assert quota_cores("20000", "100000") == 1
    assert quota_cores("400000", "100000") == 4


def test_one_per_core_means_the_cores_the_process_may_run_on() -> None:
    """Pinned to one core (this thread only: Linux's affinity is per thread), one process."""
    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cores)})
    try:
        assert usable_cores() == 1
    finally:
        os.sched_setaffinity(0, cores)
