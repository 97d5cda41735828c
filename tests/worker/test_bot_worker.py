"""Bot turns as jobs played by real worker processes: the human's answer does not wait, events
follow, a killed worker's job is taken over, a decision taken twice is committed once, stale
jobs are dropped, bots stay deterministic, and games from before the lanes still get their
bot turns. Runs on one Redis and on a cluster."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
from redis.exceptions import ResponseError

from service.app import create_app
from service.core.access.keys import DEFAULT_TENANT, new_token
from service.engine import start as engine_start
from service.engine.play import encode_state
from service.games import games
from service.settings import Settings
from service.store import FORMAT, Record, RedisStore, connect
from service.store.jobs import GROUP, LANE_KEYS, LANES, in_lane_slot, job_key, lane_of
from tests.conftest import Api, client_for, own_redis
from tests.support import gql
from tests.support.gql import CREATE_WITH_BOTS
from tests.support.play import apply, bot_seats, create_game, until_seat_acts
from tests.support.waiting import until
from tests.support.workers import WorkerProcess, serving_worker, worker_process

SETTINGS = Settings(rate_limit_per_token=0, rate_limit_per_address=0)
STUCK = {"RULES_BOT_ITERATIONS": str(10**9)}  # a SEARCH decision that never ends
QUICK_RECLAIM = {"RULES_WORKER_RECLAIM_SECONDS": "1"}


@pytest.fixture
async def isolated() -> AsyncIterator[tuple[str, Api, RedisStore]]:
    """A Redis of its own (so that only this test's workers take its jobs), the API on it and
    a store client to look at the jobs."""
    with own_redis() as url:
        store = RedisStore(connect(SETTINGS, url), SETTINGS)
        async with client_for(create_app(SETTINGS, url)) as http:
            yield url, Api(http), store
        await store.close()


async def _bot_game(
    api: Api, kind: str, players: int, seed: str, bots: dict[int, str]
) -> tuple[str, str]:
    """A game whose `bots` seats the workers play: its id and the first human seat's token."""
    created = await create_game(
        api.http, document=CREATE_WITH_BOTS, kind=kind, players=players, seed=seed,
        bots=bot_seats(bots),
    )  # fmt: skip
    return created["game"]["id"], created["seats"][0]["token"]


async def _claimed_by_one_worker(store: RedisStore, game_id: str) -> bool:
    try:
        pending = await store.redis.xpending(_jobs_key(game_id), GROUP)
    except ResponseError:  # the worker has not created its consumer group yet
        return False
    return bool(pending["pending"] == 1 and len(pending["consumers"]) == 1)


@asynccontextmanager
async def _in_a_workers_hands(
    isolated: tuple[str, Api, RedisStore], seed: str, **settings: str
) -> AsyncIterator[tuple[str, str, WorkerProcess]]:
    """A new game whose SEARCH bot (seat 0) is due, its job taken by a new worker process;
    yields the game's id, the human's token and the worker."""
    url, api, store = isolated
    game_id, token = await _bot_game(api, "TREELINGS", 2, seed, {0: "SEARCH"})
    with worker_process(url, **settings) as worker:
        await until(lambda: _claimed_by_one_worker(store, game_id), "the worker took the job")
        yield game_id, token, worker


def _jobs_key(game_id: str) -> str:
    """The stream of the API's games' bot jobs (their tenant is the default one)."""
    return job_key(lane_of(game_id), DEFAULT_TENANT)


async def _jobs_left(store: RedisStore) -> int:
    keys = [*LANE_KEYS, *(job_key(lane, DEFAULT_TENANT) for lane in range(len(LANE_KEYS)))]
    return sum([await store.redis.xlen(key) for key in keys])


async def test_the_human_is_answered_at_once_and_the_bots_moves_follow_as_events(
    api: Api, bot_worker: WorkerProcess
) -> None:
    bots = {1: "SEARCH", 2: "GREEDY", 3: "GREEDY"}
    game_id, token = await _bot_game(api, "TREELINE", 4, "answer-at-once", bots)
    seen = await until_seat_acts(api, game_id, token, 0)
    store = RedisStore(connect(SETTINGS, bot_worker.redis_url), SETTINGS)
    async with store.events(game_id) as events:
        while 0 in seen["toAct"]:  # the human's whole turn, one decision at a time
            move = seen["legalMoves"][0]["move"]
            result = await apply(api, game_id, token, move, expectedVersion=seen["version"])
            answered = result["game"]
            seen = (await api.gql(gql.GAME, {"id": game_id}, token))["game"]
        assert set(answered["toAct"]) <= {1, 2, 3}, "the game as committed, the bots to act"
        versions = []
        async with asyncio.timeout(60):
            while True:
                event = json.loads(await events.next())
                versions.append(event["version"])
                after = (await api.gql(gql.GAME, {"id": game_id}, token))["game"]
                if event["version"] == after["version"] and 0 in after["toAct"]:
                    break
    await store.close()
    bots_versions = [v for v in versions if v > answered["version"]]
    assert bots_versions == [*range(answered["version"] + 1, versions[-1] + 1)], versions
    history = (await api.gql(gql.HISTORY, {"id": game_id}))["game"]["history"]
    bot_moves = {e["seat"] for e in history if e["version"] > answered["version"]}
    assert bot_moves & {1, 2, 3}, "the bots played after the human"


async def test_bots_play_the_same_moves_for_the_same_seed_and_human_moves(
    api: Api, bot_worker: WorkerProcess
) -> None:
    finals = []
    for _ in range(2):
        game_id, token = await _bot_game(
            api, "TREELINGS", 3, "same-seed", {0: "SEARCH", 2: "GREEDY"}
        )
        for _ in range(2):
            seen = await until_seat_acts(api, game_id, token, 1)
            move = seen["legalMoves"][0]["move"]
            await apply(api, game_id, token, move, expectedVersion=seen["version"])
        seen = await until_seat_acts(api, game_id, token, 1)
        history = (await api.gql(gql.HISTORY, {"id": game_id}))["game"]["history"]
        finals.append((seen["state"], history))
    assert finals[0] == finals[1]


async def test_a_worker_killed_mid_decision_leaves_its_job_to_another_that_plays_it(
    isolated: tuple[str, Api, RedisStore],
) -> None:
    url, api, store = isolated
    async with _in_a_workers_hands(isolated, "killed", **STUCK) as (game_id, token, stuck):
        stuck.process.send_signal(signal.SIGKILL)
        stuck.process.wait(30)
        with worker_process(url, **QUICK_RECLAIM) as rescuer:
            seen = await until_seat_acts(api, game_id, token, 1)
            assert await until(lambda: _no_jobs(store), "every job done")
            log = rescuer.stop()
    assert seen["version"] >= 1
    history = (await api.gql(gql.HISTORY, {"id": game_id}))["game"]["history"]
    assert history[0]["seat"] == 0 and [e["version"] for e in history] == [
        *range(1, seen["version"] + 1)
    ]
    assert "reclaimed job" in log and f"{game_id} v0 seat 0: played" in log, log


async def _no_jobs(store: RedisStore) -> bool:
    return await _jobs_left(store) == 0


async def test_a_decision_taken_by_two_workers_is_committed_once(
    isolated: tuple[str, Api, RedisStore],
) -> None:
    url, api, store = isolated
    # Seconds of SEARCH, paused once the worker says it is deciding: a pause that caught it
    # reading a reply would time that read out on resume, and it would never commit at all.
    slow = {"RULES_BOT_ITERATIONS": "20000", "LOG_LEVEL": "debug"}
    async with _in_a_workers_hands(isolated, "twice", **slow) as (game_id, token, paused):
        await paused.until_logged(f"{game_id} v0 seat 0: deciding")
        os.kill(paused.process.pid, signal.SIGSTOP)
        try:
            with worker_process(url, **QUICK_RECLAIM) as rescuer:
                seen = await until_seat_acts(api, game_id, token, 1)
                rescued = rescuer.stop()
        finally:
            os.kill(paused.process.pid, signal.SIGCONT)
        await paused.until_logged(f"{game_id} v0 seat 0: stale", 300)  # its commit refused
    history = (await api.gql(gql.HISTORY, {"id": game_id}))["game"]["history"]
    assert [e["version"] for e in history] == [*range(1, seen["version"] + 1)]
    assert [e["seat"] for e in history if e["version"] == 1] == [0]
    assert f"{game_id} v0 seat 0: played" in rescued, rescued
    assert await _jobs_left(store) == 0


async def test_stale_and_unknown_jobs_are_acknowledged_and_dropped(
    isolated: tuple[str, Api, RedisStore],
) -> None:
    url, api, store = isolated
    game_id, token = await _bot_game(api, "TREELINGS", 2, "stale", {0: "GREEDY"})
    lane = _jobs_key(game_id)
    await store.redis.xadd(lane, {"g": game_id, "v": 5, "s": 0})  # a version never reached
    await store.redis.xadd(lane, {"g": game_id, "v": 0, "s": 1})  # not a bot seat
    await store.redis.xadd(lane, {"what": "not a job"})
    async with serving_worker(url) as (worker, port):
        seen = await until_seat_acts(api, game_id, token, 1)
        await until(lambda: _no_jobs(store), "every job acknowledged and deleted")
        exported = await until(lambda: _metrics_once_idle(port), "the backlog exported as 0")
        log = worker.stop()
    assert seen["version"] >= 1
    played = exported['rules_bot_jobs_total{outcome="played"}']  # one per bot decision
    assert played >= 1 and exported['rules_bot_jobs_total{outcome="stale"}'] == 2.0
    assert exported['rules_bot_decisions_total{strategy="GREEDY"}'] == played
    assert exported['rules_bot_job_seconds_count{strategy="GREEDY"}'] == played
    assert f"{game_id} v0 seat 0: played" in log
    assert f"{game_id} v5 seat 0: stale" in log and f"{game_id} v0 seat 1: stale" in log
    history = (await api.gql(gql.HISTORY, {"id": game_id}))["game"]["history"]
    assert len(history) == seen["version"]


async def _metrics_once_idle(port: int) -> dict[str, float] | None:
    """The worker's samples once it has exported an empty backlog."""
    async with httpx.AsyncClient() as http:
        text = (await http.get(f"http://127.0.0.1:{port}/metrics")).text
    samples = dict(line.rsplit(" ", 1) for line in text.splitlines() if not line.startswith("#"))
    exported = {name: float(value) for name, value in samples.items()}
    idle = exported.get("rules_bot_jobs_pending") == 0.0
    return exported if idle and exported.get("rules_bot_oldest_job_seconds") == 0.0 else None


async def _legacy_game(store: RedisStore, updated: float, queued: bool) -> tuple[str, str, int]:
    """A game stored as a release before the lanes did: an id in any slot (here in none of
    the lanes' slots), its bot seat to act. Returns its id, the human's token and seat."""
    game_id = secrets.token_urlsafe(12)
    while in_lane_slot(game_id):
        game_id = secrets.token_urlsafe(12)
    game = games()["TREELINGS"]
    played = engine_start(game, 2, None, "legacy")
    bot = game.to_act(played.state)[0]
    human = 1 - bot
    token, token_hash = new_token(human)
    hashes = [token_hash if seat == human else b"" for seat in range(2)]
    state = encode_state(played.state)
    record = Record(FORMAT, "TREELINGS", 2, 0, False, "legacy", hashes, state, updated, updated)
    record.bots = {bot: "GREEDY"}
    assert await store.create(game_id, record, [], bot if queued else None)
    return game_id, token, human


async def test_a_game_whose_id_is_in_no_lane_slot_still_gets_its_bot_turns(
    api: Api, bot_worker: WorkerProcess
) -> None:
    store = RedisStore(connect(SETTINGS, bot_worker.redis_url), SETTINGS)
    game_id, token, human = await _legacy_game(store, time.time(), queued=True)
    await store.close()
    seen = await until_seat_acts(api, game_id, token, human)
    assert seen["version"] >= 1


@pytest.mark.skipif(
    not os.environ.get("TEST_REDIS_CLUSTER"), reason="one server queues every job atomically"
)
async def test_a_lost_bot_job_of_an_old_game_is_queued_again_by_a_read(
    api: Api, bot_worker: WorkerProcess
) -> None:
    store = RedisStore(connect(SETTINGS, bot_worker.redis_url), SETTINGS)
    game_id, token, human = await _legacy_game(store, time.time() - 3600, queued=False)
    await store.close()
    seen = await until_seat_acts(api, game_id, token, human)
    assert seen["version"] >= 1


async def test_a_worker_makes_its_groups_again_when_redis_loses_them(
    isolated: tuple[str, Api, RedisStore],
) -> None:
    """A Redis restarted empty (or flushed) under a running worker: its next read finds no
    group (NOGROUP), makes them again, and the bots of new games play."""
    url, api, store = isolated

    async def grouped() -> bool:
        try:
            return bool(await store.redis.xinfo_groups(LANE_KEYS[0]))
        except ResponseError:
            return False

    with worker_process(url):
        await until(grouped, "the worker made its groups")
        await store.redis.flushall()
        game_id, token = await _bot_game(api, "TREELINGS", 2, "regroup", {0: "GREEDY"})
        seen = await until_seat_acts(api, game_id, token, 1)
    assert seen["version"] >= 1


async def _calls(store: RedisStore) -> dict[str, int]:
    """Calls per command the server has run so far (INFO commandstats)."""
    stats = await store.redis.info("commandstats")
    return {name.removeprefix("cmdstat_"): int(stat["calls"]) for name, stat in stats.items()}


@pytest.mark.skipif(
    bool(os.environ.get("TEST_REDIS_CLUSTER")), reason="counts the commands of one server"
)
async def test_an_idle_worker_looks_at_each_lane_once_a_poll_and_still_serves_a_lost_wake_up(
    isolated: tuple[str, Api, RedisStore],
) -> None:
    """Idle, a worker sends no reclaim, read, backlog or clock-claim command per stream: one
    look per lane and poll (XREAD of the job streams and outboxes, EXISTS of the clock sets).
    A job queued with no wake-up (as if the PUBLISH were lost) is still found by that look."""
    url, api, store = isolated
    tenants = "a:secret-a,b:secret-b,c:secret-c"
    with worker_process(url, RULES_API_KEYS=tenants) as worker:
        await until(lambda: _idle_looks(store, 3), "the worker idle, three looks done")
        before = await _calls(store)
        await until(lambda: _idle_looks(store, 3 + before["exists"] // LANES), "three more")
        after = await _calls(store)
        spent = {name: calls - before.get(name, 0) for name, calls in after.items()}
        looks = spent["exists"] / LANES
        game_id, token, human = await _legacy_game(store, time.time(), queued=False)
        bot = 1 - human
        await store.redis.xadd(job_key(lane_of(game_id), ""), {"g": game_id, "v": 0, "s": bot})
        seen = await until_seat_acts(api, game_id, token, human)
        log = worker.stop()
    per_look = {name: calls / looks for name, calls in spent.items() if calls}
    assert LANES <= per_look.get("xread", 0) <= 3 * LANES, per_look  # job streams, outboxes
    for command in ("xautoclaim", "xreadgroup", "xlen", "xrange", "evalsha", "zrange"):
        assert command not in per_look, per_look
    assert seen["version"] >= 1 and f"{game_id} v0 seat {bot}: played" in log, log


async def _idle_looks(store: RedisStore, looks: int) -> bool:
    """Whether the worker's clock sweep has looked at the lanes `looks` times."""
    return (await _calls(store)).get("exists", 0) >= looks * LANES
