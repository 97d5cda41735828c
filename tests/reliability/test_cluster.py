"""The store unchanged on a Redis Cluster of three masters: a game's keys share one slot, its
events are sharded pub/sub on that slot's node and reach subscribers of any replica, and racing
clients through two replicas still get every move applied exactly once."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator, Iterator

import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from service.games import games
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.embedded import EmbeddedRedisCluster
from tests.reliability.harness import services
from tests.reliability.players import Players, audit, summary
from tests.support import factories
from tests.support.waiting import until

SETTINGS = Settings(active_ttl=600, finished_ttl=600)


@pytest.fixture(scope="module")
def cluster() -> Iterator[EmbeddedRedisCluster]:
    cluster = EmbeddedRedisCluster().start()
    try:
        yield cluster
    finally:
        cluster.cleanup()


@pytest.fixture
async def store(cluster: EmbeddedRedisCluster) -> AsyncIterator[RedisStore]:
    store = RedisStore(connect(SETTINGS, cluster.url), SETTINGS)
    assert isinstance(store.redis, RedisCluster)
    yield store
    await store.close()


async def _games_on_every_node(store: RedisStore, nodes: int) -> dict[str, str]:
    """Game ids (each created with one committed move) by the node that owns their slot."""
    assert isinstance(store.redis, RedisCluster)
    await store.redis.initialize()
    owners: dict[str, str] = {}
    for _ in range(200):
        game_id = secrets.token_hex(6)
        node = store.redis.get_node_from_key(f"g:{{{game_id}}}").name
        if node in owners:
            continue
        assert await store.create(game_id, factories.record(1), [factories.history_entry(1)])
        assert (
            await store.commit(game_id, 1, factories.record(2), [factories.history_entry(2)], "0:k")
        ).outcome == "ok"
        owners[node] = game_id
        if len(owners) == nodes:
            return owners
    raise AssertionError("no game id landed on some node")


async def test_every_key_of_a_game_is_in_one_slot_on_the_node_that_owns_it(
    cluster: EmbeddedRedisCluster, store: RedisStore
) -> None:
    assert isinstance(store.redis, RedisCluster)
    owners = await _games_on_every_node(store, len(cluster.nodes))
    for node_name, game_id in owners.items():
        keys = [f"g:{{{game_id}}}", f"g:{{{game_id}}}:h", f"g:{{{game_id}}}:i"]
        slots = {await store.redis.cluster_keyslot(key) for key in keys}
        assert len(slots) == 1
        node = store.redis.get_node(node_name=node_name)
        assert node is not None
        stored = await store.redis.execute_command(
            "CLUSTER", "COUNTKEYSINSLOT", slots.pop(), target_nodes=node
        )
        assert stored == 3, f"the keys of {game_id} are not all on {node_name}"


async def test_events_are_sharded_on_the_games_slot_and_reach_every_subscriber(
    cluster: EmbeddedRedisCluster, store: RedisStore
) -> None:
    owners = await _games_on_every_node(store, len(cluster.nodes))
    listener = RedisStore(connect(SETTINGS, cluster.url), SETTINGS)
    try:
        for node_name, game_id in owners.items():
            async with listener.events(game_id) as events:
                owner = store.redis.get_node(node_name=node_name)  # type: ignore[union-attr]
                assert owner is not None
                channel = f"g:{{{game_id}}}:events"
                counts = await store.redis.execute_command(
                    "PUBSUB", "SHARDNUMSUB", channel, target_nodes=owner
                )
                assert counts[1] == 1, "the subscription is sharded, on the slot's own node"
                await store.commit(
                    game_id,
                    2,
                    factories.record(4),
                    [factories.history_entry(3), factories.history_entry(4)],
                    None,
                )
                async with asyncio.timeout(30):
                    received = [json.loads(await events.next()) for _ in range(2)]
                assert [e["version"] for e in received] == [3, 4]
                assert {e["gameId"] for e in received} == {game_id}
    finally:
        await listener.close()


async def test_concurrent_moves_on_a_cluster_are_applied_exactly_once(
    cluster: EmbeddedRedisCluster, store: RedisStore
) -> None:
    with services([cluster.url, cluster.url], REDIS_TIMEOUT="2") as replicas:
        players = Players([s.url for s in replicas], [], seed=21)
        try:
            for kind, game in sorted(games().items()):
                for n in range(2):
                    played_game = await players.create(
                        kind, game.min_players, f"cluster-{kind}-{n}"
                    )
                    players.games.append(played_game)
            # the budget ends the run; the time cap only matters on a very busy machine
            await players.run(clients=8, seconds=120, budget=300)
        finally:
            await players.aclose()
        assert all(s.alive() for s in replicas)
    checked = await audit(store.redis, players.games, players.record.intents)
    counts = summary(players.record, checked, 0)
    print("cluster run:", json.dumps(counts))
    assert not checked.problems, "\n".join(checked.problems[:20])
    assert counts["acknowledged"] >= 30 and counts["conflicts"] >= 3, counts
    assert isinstance(store.redis, RedisCluster)
    owners = {store.redis.get_node_from_key(f"g:{{{t.id}}}").name for t in players.games}
    assert len(owners) > 1, "the games are spread over the cluster's nodes"


def test_the_url_chooses_one_server_or_a_cluster_and_keeps_credentials() -> None:
    settings = Settings()
    assert isinstance(connect(settings, "redis://127.0.0.1:7000/0"), Redis)
    flagged = connect(settings, "redis://127.0.0.1:7000/0?cluster=true")
    assert isinstance(flagged, RedisCluster)
    assert [n.name for n in flagged.startup_nodes] == ["127.0.0.1:7000"]
    seeds = connect(settings, "rediss+cluster://:secret@node-1:7000,node-2:7001/0")
    assert isinstance(seeds, RedisCluster)
    assert sorted(n.name for n in seeds.startup_nodes) == ["node-1:7000", "node-2:7001"]
    for node in seeds.startup_nodes:
        assert node.connection_kwargs["password"] == "secret"
        assert node.connection_class.__name__ == "SSLConnection"


async def test_readiness_fails_while_a_master_is_down_and_returns_with_it(
    cluster: EmbeddedRedisCluster, store: RedisStore
) -> None:
    assert await store.ping()
    node = cluster.nodes[-1]
    node.kill()
    try:
        assert not await store.ping(), "a master is down: some games cannot be served"
    finally:
        node.start()

    async def ready() -> bool:
        return await store.ping()

    await until(ready, "readiness after the master returned")
