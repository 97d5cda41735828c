"""Bot jobs on the lanes (service/store/jobs.py): the commit that leaves a bot seat due queues
its job on its tenant's stream in the lane of the game's own slot (the lane's own stream for a
game without a tenant) in the same script, a refused commit queues none, and the workers' queue
reads, reclaims and acknowledges them. On one Redis and on a cluster."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from service.settings import Settings
from service.store import RedisStore, connect
from service.store.jobs import LANE_KEYS, Job, JobQueue, job_key, lane_of, new_game_id, slot
from tests.conftest import own_redis
from tests.support import factories

SETTINGS = Settings()
SEATS = [b"a", b""]  # the token hashes of the records: seat 1 has none


@pytest.fixture
async def store() -> AsyncIterator[RedisStore]:
    """A Redis of its own: no bot worker of another test takes these jobs."""
    with own_redis() as url:
        store = RedisStore(connect(SETTINGS, url), SETTINGS)
        yield store
        await store.close()


async def _jobs(store: RedisStore, game_id: str, tenant: str = "") -> list[tuple[int, int]]:
    """(version, seat) of every job of the game on its tenant's stream of its lane, oldest
    first."""
    entries: list[tuple[bytes, dict[bytes, bytes]]] = await store.redis.xrange(
        job_key(lane_of(game_id), tenant)
    )  # type: ignore[assignment]
    return [
        (int(fields[b"v"]), int(fields[b"s"]))
        for _, fields in entries
        if fields.get(b"g") == game_id.encode()
    ]


async def test_a_new_games_lane_shares_its_slot() -> None:
    for _ in range(50):
        game_id = new_game_id()
        for key in (LANE_KEYS[lane_of(game_id)], job_key(lane_of(game_id), "acme")):
            assert slot(key.split("{")[1].partition("}")[0]) == slot(game_id)


async def test_a_games_jobs_go_to_its_tenants_stream_and_without_one_to_the_lanes(
    store: RedisStore,
) -> None:
    tenanted, untenanted = new_game_id(), new_game_id()
    record = factories.record(0, token_hashes=SEATS, tenant="acme")
    assert await store.create(tenanted, record, [], bot_due=1)
    assert await store.create(untenanted, factories.record(0, token_hashes=SEATS), [], bot_due=1)
    assert job_key(lane_of(tenanted), "acme") == f"bots:{{bots-{lane_of(tenanted)}}}:acme"
    assert await _jobs(store, tenanted, "acme") == [(0, 1)]
    assert await _jobs(store, tenanted) == []
    assert await _jobs(store, untenanted) == [(0, 1)]


async def test_only_an_accepted_commit_queues_its_bot_job(store: RedisStore) -> None:
    game_id = new_game_id()
    assert await store.create(game_id, factories.record(0, token_hashes=SEATS), [], bot_due=1)
    assert await _jobs(store, game_id) == [(0, 1)]
    ok = await store.commit(
        game_id,
        0,
        factories.record(1, token_hashes=SEATS),
        [factories.history_entry(1)],
        "0:k",
        bot_due=1,
    )
    assert ok.outcome == "ok"
    assert await _jobs(store, game_id) == [(0, 1), (1, 1)]
    stale = await store.commit(
        game_id,
        0,
        factories.record(1, token_hashes=SEATS),
        [factories.history_entry(1)],
        None,
        bot_due=1,
    )
    dup = await store.commit(
        game_id,
        0,
        factories.record(1, token_hashes=SEATS),
        [factories.history_entry(1)],
        "0:k",
        bot_due=1,
    )
    assert (stale.outcome, dup.outcome) == ("stale", "dup")
    assert await store.commit(
        game_id, 1, factories.record(2, token_hashes=SEATS), [factories.history_entry(2)], None
    )  # no bot due
    assert await _jobs(store, game_id) == [(0, 1), (1, 1)]


async def test_a_job_left_by_a_dead_consumer_is_reclaimed_then_done(store: RedisStore) -> None:
    game_id = new_game_id()
    lane = lane_of(game_id)
    dead, alive = JobQueue(store.redis, "dead", 0, []), JobQueue(store.redis, "alive", 0, [])
    await dead.ensure_groups()
    assert await store.create(game_id, factories.record(0, token_hashes=SEATS), [], bot_due=1)
    taken = await dead.read(lane, "")
    assert taken is not None and (taken.game_id, taken.version, taken.seat) == (game_id, 0, 1)
    assert await alive.read(lane, "") is None, "a job is handed to one consumer"
    reclaimed = await alive.reclaim(lane, "")
    assert reclaimed == Job(lane, taken.entry, game_id, 0, 1)
    held, oldest = await alive.backlog()
    assert held == {(lane, ""): 1} and oldest == pytest.approx(reclaimed.age(), abs=1)
    await alive.done(lane, "", reclaimed.entry)
    assert await alive.reclaim(lane, "") is None
    assert (await alive.backlog())[0] == {} and await _jobs(store, game_id) == []
