"""The tenant indexes against a real server (a cluster in the cluster pass): written by the
same script as the record, in the game's slot, and only when the commit is."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import msgspec
import pytest

from service.settings import Settings
from service.store import RedisStore, connect, indexes
from service.store.jobs import lane_of, new_game_id, slot
from service.store.records import Clock
from tests.support import factories

SETTINGS = Settings(active_ttl=1000, finished_ttl=100)
PLAYERS: list[str | None] = ["ann", "ben"]


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(connect(SETTINGS, redis_url), SETTINGS)
    yield store
    await store.close()


async def _members(store: RedisStore, key: str) -> list[str]:
    return [m.decode() for m in await store.redis.zrange(key, 0, -1)]


def test_a_games_index_keys_share_its_slot() -> None:
    game_id = new_game_id()
    keys, flags = indexes.updates(
        game_id, factories.record(1, tenant="acme", player_ids=PLAYERS, acting=[0])
    )
    assert {slot(key.partition("{")[2].partition("}")[0]) for key in keys} == {slot(game_id)}
    # tenant and kind; ACTIVE, not FINISHED nor ABANDONED; ann sits and acts; ben sits only
    assert flags == "++" + "+--" + "++" + "+-"
    assert keys[1] == indexes.kind_key(lane_of(game_id), "acme", "TREELINGS")


def test_a_game_without_a_tenant_is_in_no_index() -> None:
    without_tenant = factories.record(1, tenant="", player_ids=PLAYERS, acting=[0])
    assert indexes.updates(new_game_id(), without_tenant) == ([], "")


async def test_indexes_follow_the_commits_and_a_stale_one_changes_nothing(
    store: RedisStore,
) -> None:
    tenant, game_id = f"t-{secrets.token_hex(4)}", new_game_id()
    lane = lane_of(game_id)
    member = indexes.member(
        game_id, factories.record(1, tenant=tenant, player_ids=PLAYERS, acting=[0])
    )
    ann, ben = (indexes.acting_key(lane, tenant, p) for p in ("ann", "ben"))
    assert await store.create(
        game_id,
        factories.record(1, tenant=tenant, player_ids=PLAYERS, acting=[0]),
        [factories.history_entry(1)],
    )
    kind = indexes.kind_key(lane, tenant, "TREELINGS")
    assert await _members(store, indexes.tenant_key(lane, tenant)) == [member]
    assert await _members(store, kind) == [member]
    assert await _members(store, indexes.player_key(lane, tenant, "ben")) == [member]
    assert (await _members(store, ann), await _members(store, ben)) == ([member], [])
    committed = await store.commit(
        game_id,
        1,
        factories.record(2, tenant=tenant, player_ids=PLAYERS, acting=[1]),
        [factories.history_entry(2)],
        None,
    )
    assert committed.outcome == "ok"
    assert (await _members(store, ann), await _members(store, ben)) == ([], [member])
    stale = await store.commit(
        game_id,
        1,
        factories.record(2, tenant=tenant, player_ids=PLAYERS, acting=[0]),
        [factories.history_entry(2)],
        None,
    )
    assert stale.outcome == "stale"
    assert (await _members(store, ann), await _members(store, ben)) == ([], [member])
    over = await store.commit(
        game_id,
        2,
        factories.record(3, tenant=tenant, player_ids=PLAYERS, acting=[], finished=True),
        [factories.history_entry(3)],
        None,
    )
    assert over.outcome == "ok"
    assert (await _members(store, ann), await _members(store, ben)) == ([], [])
    assert await _members(store, indexes.tenant_key(lane, tenant)) == [member]
    active, finished = (indexes.status_key(lane, tenant, s) for s in ("ACTIVE", "FINISHED"))
    assert (await _members(store, active), await _members(store, finished)) == ([], [member])
    assert await _members(store, kind) == [member], "a game keeps its kind to the end"
    for key in (indexes.tenant_key(lane, tenant), kind):
        assert 0 < await store.redis.ttl(key) <= 1000


async def test_a_listing_drops_the_entries_of_games_that_expired(store: RedisStore) -> None:
    tenant = f"t-{secrets.token_hex(4)}"
    kept, gone = new_game_id(), new_game_id()
    for game_id in (kept, gone):
        assert await store.create(
            game_id,
            factories.record(1, tenant=tenant, player_ids=PLAYERS, acting=[0]),
            [factories.history_entry(1)],
        )
    await store.redis.delete(f"g:{{{gone}}}", f"g:{{{gone}}}:h")  # as its TTL would
    keys = [indexes.tenant_key(lane, tenant) for lane in indexes.lanes()]
    reads: list[tuple[str, str | None]] = [(key, None) for key in keys]
    replies = await store.listed(reads, None, 10)
    listed = [(m, k) for k, ms in zip(keys, replies, strict=True) for m in ms]
    records = await store.records([indexes.game_of(m) for m, _ in listed])
    assert sorted(indexes.game_of(m) for m, _ in listed) == sorted([kept, gone])
    await store.unlist([entry for entry, r in zip(listed, records, strict=True) if r is None])
    again = [m for ms in await store.listed(reads, None, 10) for m in ms]
    assert [indexes.game_of(m) for m in again] == [kept]
    record = (await store.records([kept]))[0]
    assert record is not None and msgspec.structs.asdict(record)["tenant"] == tenant


async def test_a_games_clock_is_in_its_tenants_set_and_leaves_the_lanes_own(
    store: RedisStore,
) -> None:
    """A clocked game's deadline is written to its tenant's clocks in its lane, another tenant's
    holds nothing; the lane's own set (earlier releases') loses the game at its next commit."""
    tenant, game_id = f"t-{secrets.token_hex(4)}", new_game_id()
    lane, clock = lane_of(game_id), Clock(30.0, None, 0.0, "AUTO_GREEDY")
    ours, legacy = indexes.clock_key(lane, tenant), indexes.clock_key(lane, "")
    created = factories.record(1, tenant=tenant, clock=clock, deadline=100.0)
    await store.redis.zadd(legacy, {game_id: 50.0})  # as an earlier release wrote it
    assert await store.create(game_id, created, [factories.history_entry(1)])
    assert await store.redis.zscore(ours, game_id) == 100.0
    assert await store.redis.zscore(indexes.clock_key(lane, f"{tenant}-other"), game_id) is None
    assert await store.redis.zscore(legacy, game_id) is None
    later = factories.record(2, tenant=tenant, clock=clock, deadline=130.0)
    assert (
        await store.commit(game_id, 1, later, [factories.history_entry(2)], None)
    ).outcome == "ok"
    assert await store.redis.zscore(ours, game_id) == 130.0
    over = factories.record(3, tenant=tenant, clock=clock, finished=True)
    assert (
        await store.commit(game_id, 2, over, [factories.history_entry(3)], None)
    ).outcome == "ok"
    assert await store.redis.zscore(ours, game_id) is None
