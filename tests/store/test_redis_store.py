"""The Redis store against a real server: the commit script's outcomes, TTLs, events."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import secrets
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis, RedisCluster

from service.settings import Settings
from service.store import Done, NotReplicated, RedisStore, StoreUnavailable, connect, indexes
from service.store.embedded import EmbeddedRedisCluster
from service.store.records import fold, label_digest
from tests.conftest import own_redis
from tests.support import factories
from tests.support.waiting import until

SETTINGS = Settings(active_ttl=1000, finished_ttl=100, idempotency_grace=10)


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(connect(SETTINGS, redis_url), SETTINGS)
    yield store
    await store.close()


async def _new(store: RedisStore) -> str:
    game_id = secrets.token_hex(6)
    assert await store.create(game_id, factories.record(1), [factories.history_entry(1)])
    return game_id


async def test_create_refuses_an_existing_id(store: RedisStore) -> None:
    game_id = await _new(store)
    assert not await store.create(game_id, factories.record(5), [])
    record, _ = await store.load(game_id)
    assert record is not None and record.version == 1


async def test_every_key_of_a_game_shares_its_hash_tag(store: RedisStore) -> None:
    game_id = await _new(store)
    await store.commit(game_id, 1, factories.record(2), [factories.history_entry(2)], "0:k")
    keys = sorted(k.decode() for k in await store.redis.keys(f"*{game_id}*"))
    assert keys == [f"g:{{{game_id}}}", f"g:{{{game_id}}}:h", f"g:{{{game_id}}}:i"]


async def test_commit_writes_record_history_and_idempotency_together(store: RedisStore) -> None:
    game_id = await _new(store)
    committed = await store.commit(
        game_id,
        1,
        factories.record(3),
        [factories.history_entry(2), factories.history_entry(3)],
        "0:key",
    )
    assert (committed.outcome, committed.version) == ("ok", 3)
    record, done = await store.load(game_id, "0:key")
    assert record is not None and record.version == 3 and done == Done(3, None, "0:key")
    assert [h.version for h in await store.history(game_id)] == [1, 2, 3]
    assert [h.version for h in await store.history(game_id, after=2)] == [3]


async def test_commit_on_a_stale_version_changes_nothing(store: RedisStore) -> None:
    game_id = await _new(store)
    await store.commit(game_id, 1, factories.record(2), [factories.history_entry(2)], None)
    committed = await store.commit(
        game_id, 1, factories.record(2), [factories.history_entry(2)], None
    )
    assert (committed.outcome, committed.version) == ("stale", 2)
    assert len(await store.history(game_id)) == 2


async def test_a_used_idempotency_key_returns_its_version_and_writes_nothing(
    store: RedisStore,
) -> None:
    game_id = await _new(store)
    await store.commit(game_id, 1, factories.record(2), [factories.history_entry(2)], "1:retry")
    committed = await store.commit(
        game_id, 1, factories.record(2), [factories.history_entry(2)], "1:retry"
    )
    assert (committed.outcome, committed.version) == ("dup", 2)
    assert len(await store.history(game_id)) == 2


async def test_commit_to_a_missing_game_is_gone(store: RedisStore) -> None:
    committed = await store.commit(
        "missing-" + secrets.token_hex(4), 0, factories.record(1), [], None
    )
    assert committed.outcome == "gone"


async def test_ttls_follow_the_game_status(store: RedisStore) -> None:
    game_id = await _new(store)
    record_key = f"g:{{{game_id}}}"
    assert 990 < await store.redis.ttl(record_key) <= 1000
    await store.commit(
        game_id, 1, factories.record(2, finished=True), [factories.history_entry(2)], "0:end"
    )
    for key in (record_key, f"{record_key}:h", f"{record_key}:i"):
        assert 90 < await store.redis.ttl(key) <= 100


async def test_commit_publishes_one_event_per_new_version(
    store: RedisStore, redis_url: str
) -> None:
    game_id = await _new(store)
    async with store.events(game_id) as subscriber:
        await store.commit(
            game_id,
            1,
            factories.record(3, finished=True),
            [factories.history_entry(2), factories.history_entry(3)],
            None,
        )
        async with asyncio.timeout(30):
            events = [json.loads(await subscriber.next()) for _ in range(2)]
    assert events == [
        {"gameId": game_id, "version": 2, "status": "ACTIVE"},
        {"gameId": game_id, "version": 3, "status": "FINISHED"},
    ]


async def test_racing_commits_on_one_version_apply_exactly_once(redis_url: str) -> None:
    stores = [RedisStore(connect(SETTINGS, redis_url), SETTINGS) for _ in range(8)]
    game_id = await _new(stores[0])
    results = await asyncio.gather(
        *(
            s.commit(game_id, 1, factories.record(2), [factories.history_entry(2)], f"0:k{i}")
            for i, s in enumerate(stores)
        )
    )
    assert sorted(r.outcome for r in results) == ["ok"] + ["stale"] * 7
    assert len(await stores[0].history(game_id)) == 2
    for s in stores:
        await s.close()


async def test_the_store_never_touches_keys_it_does_not_own(redis_url: str) -> None:
    other = Redis.from_url(redis_url)
    await other.set("someone-else", "kept")
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    await _new(store)
    assert await other.get("someone-else") == b"kept"
    await other.delete("someone-else")
    await other.aclose()
    await store.close()


async def test_a_flushed_script_cache_is_reloaded_once_and_the_commit_applies(
    store: RedisStore,
) -> None:
    game_id = await _new(store)
    await store.redis.script_flush()
    committed = await store.commit(
        game_id, 1, factories.record(2), [factories.history_entry(2)], "0:after-flush"
    )
    assert (committed.outcome, committed.version) == ("ok", 2)
    assert len(await store.history(game_id)) == 2


async def test_a_folded_history_reads_as_the_list_did_and_the_list_is_gone(
    store: RedisStore,
) -> None:
    game_id = await _new(store)
    await store.commit(
        game_id,
        1,
        factories.record(3, finished=True),
        [factories.history_entry(2), factories.history_entry(3)],
        "0:end",
    )
    before = await store.history(game_id)
    assert await store.fold(game_id, 3, fold(before, labelled=True))
    assert await store.redis.exists(f"g:{{{game_id}}}:h") == 0
    assert await store.history(game_id) == before
    assert await store.history(game_id, after=1, until=2) == before[1:2]
    assert await store.history(game_id, after=3) == []
    assert 0 < await store.redis.ttl(f"g:{{{game_id}}}:i") <= SETTINGS.idempotency_grace


async def test_fold_refuses_another_version_and_a_second_fold(store: RedisStore) -> None:
    game_id = await _new(store)
    await store.commit(
        game_id, 1, factories.record(2, finished=True), [factories.history_entry(2)], None
    )
    entries = await store.history(game_id)
    assert not await store.fold(game_id, 1, fold(entries[:1], labelled=True))
    assert await store.fold(game_id, 2, fold(entries, labelled=True))
    assert not await store.fold(game_id, 2, fold(entries[:1], labelled=True))
    assert await store.history(game_id) == entries


async def test_a_folded_history_without_labels_says_so(store: RedisStore) -> None:
    game_id = await _new(store)
    await store.commit(
        game_id, 1, factories.record(2, finished=True), [factories.history_entry(2)], None
    )
    entries = await store.history(game_id)
    assert await store.fold(game_id, 2, fold(entries, labelled=False))
    read, digest = await store.read_history(game_id)
    assert digest == label_digest([e.label for e in entries])
    assert [(e.version, e.seat, e.move, e.label) for e in read] == [
        (e.version, e.seat, e.move, "") for e in entries
    ]


async def test_a_clock_claim_takes_the_due_games_earliest_first_and_tells_the_next() -> None:
    """The sweep's claim (a Redis of its own: the lanes' clocks hold only these)."""
    with own_redis() as url:
        store = RedisStore(connect(SETTINGS, url), SETTINGS)
        try:
            lane = indexes.clock_key(3, "acme")
            await store.redis.zadd(lane, {"late": 100.0, "early": 50.0, "later": 200.0})
            claimed, first = await store.claim_deadlines(3, "acme", 150.0, 30.0, 5)
            assert claimed == [(50.0, "early"), (100.0, "late")]
            assert first == 180.0  # their lease ends before "later" is due
            assert await store.claim_deadlines(3, "acme", 150.0, 30.0, 5) == ([], 180.0)
            again = await store.claim_deadlines(3, "acme", 1000.0, 30.0, 1)
            assert again == ([(180.0, "early")], 180.0)
            assert await store.claim_deadlines(4, "acme", 1000.0, 30.0, 5) == ([], None)
            assert await store.claim_deadlines(3, "globex", 1000.0, 30.0, 5) == ([], None)
        finally:
            await store.close()


async def test_the_sweeps_look_tells_each_clock_sets_first_deadline_and_skips_empty_ones() -> None:
    """What a sweep looks at before it claims (a Redis of its own, also a cluster): the first
    deadline of every tenant's set that holds one, the lane's own set ("") included."""
    with own_redis() as url:
        store = RedisStore(connect(SETTINGS, url), SETTINGS)
        try:
            assert await store.first_deadlines(["", "acme", "globex"]) == {}
            await store.redis.zadd(indexes.clock_key(3, "acme"), {"a": 100.0, "b": 50.0})
            await store.redis.zadd(indexes.clock_key(31, "acme"), {"c": 70.0})
            await store.redis.zadd(indexes.clock_key(3, ""), {"d": 20.0})
            await store.redis.zadd(indexes.clock_key(3, "initech"), {"e": 10.0})  # not asked
            firsts = await store.first_deadlines(["", "acme", "globex"])
            assert firsts == {(3, "acme"): 50.0, (31, "acme"): 70.0, (3, ""): 20.0}
            await store.claim_deadlines(3, "acme", 60.0, 30.0, 5)
            assert (await store.first_deadlines(["acme"]))[3, "acme"] == 90.0  # its lease
        finally:
            await store.close()


async def test_a_slot_no_node_serves_mid_failover_is_unavailable_not_an_error() -> None:
    """redis-py's cluster errors are not all RedisErrors: a slot missing from the map of slots
    (read again while a master fails over) raises SlotNotCoveredError where the store sends a
    write and its WAIT to the slot's master itself, which the chaos run met as an untyped
    createGame error. The store answers it as UNAVAILABLE, like any outage, and writes nothing."""
    acked = dataclasses.replace(SETTINGS, replica_ack=1, replica_ack_timeout_ms=100)
    server = EmbeddedRedisCluster()
    server.start()
    try:
        store = RedisStore(connect(acked, server.url), acked)
        assert await store.ping()  # the map of slots is read
        cluster = store.redis
        assert isinstance(cluster, RedisCluster)
        game_id = secrets.token_hex(6)
        del cluster.nodes_manager.slots_cache[cluster.keyslot(f"{{{game_id}}}")]
        with pytest.raises(StoreUnavailable) as refused:
            await store.create(game_id, factories.record(1), [factories.history_entry(1)])
        assert not isinstance(refused.value, NotReplicated), refused.value
        # and the store reads the map again: the slot is served once more (a map read while a
        # slot had no master stayed so for good, every write UNAVAILABLE; a CI cluster run)
        slot = cluster.keyslot(f"{{{game_id}}}")
        await until(lambda: slot in cluster.nodes_manager.slots_cache, "the map read again")
        record, _ = await store.load(game_id)
        assert record is None  # nothing was written
        await store.close()
    finally:
        server.cleanup()


async def test_a_burst_beyond_the_pool_waits_for_connections(redis_url: str) -> None:
    """More commands at once than the pool has connections wait for one, on one server
    (BlockingConnectionPool) as on a cluster (connection.WaitingCluster: redis-py's cluster
    node refuses them with MaxConnectionsError)."""
    settings = dataclasses.replace(SETTINGS, redis_pool_size=4)
    store = RedisStore(connect(settings, redis_url), settings)
    script = store.redis.register_script("return redis.call('INCR', KEYS[1])")
    key = f"burst:{{{secrets.token_hex(4)}}}"
    try:
        await store.commands.evalsha(script, [key], [])  # loaded, the client's map of slots read
        counts = await asyncio.gather(
            *(store.commands.timed("burst", lambda: store.commands.evalsha(script, [key], []))
              for _ in range(60))
        )  # fmt: skip
        assert sorted(counts) == list(range(2, 62))
    finally:
        await store.redis.delete(key)
        await store.close()
