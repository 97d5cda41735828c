"""gameEvents follows a failover (issue #30): on a Redis Cluster with a replica per master, the
master that owns a game's slot is killed; once its replica has taken over, the moves made there
reach a subscriber that was following the game all along, every version once and in order (the
event connection moves to the slot's new master, and the versions made meanwhile are given
after it resubscribed)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from redis.asyncio.cluster import RedisCluster

from service.core import GameService
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.embedded import EmbeddedRedisCluster
from tests.support.following import following, play
from tests.support.waiting import until

SETTINGS = Settings(redis_timeout=5, active_ttl=600)
NODE_TIMEOUT_MS = 3000  # short, for a failover within seconds; long enough for a busy machine
FAILOVER_SECONDS = 120  # a generous bound on detection, election and the clients' new maps


@pytest.fixture(scope="module")
def cluster() -> Iterator[EmbeddedRedisCluster]:
    cluster = EmbeddedRedisCluster(replicas=1, node_timeout_ms=NODE_TIMEOUT_MS).start()
    try:
        yield cluster
    finally:
        cluster.cleanup()


async def test_a_subscriber_sees_every_version_once_across_the_failover_of_its_games_master(
    cluster: EmbeddedRedisCluster,
) -> None:
    store = RedisStore(connect(SETTINGS, cluster.url), SETTINGS)
    redis = store.redis
    assert isinstance(redis, RedisCluster)
    service = GameService(store)
    try:
        loaded, tokens = await service.create("TREELINGS", 2, "failover", None)
        async with following(service, loaded.id, 0) as seen:
            for n in range(3):
                version = await play(service, loaded.id, tokens, f"failover-{n}")
            await until(lambda: seen and seen[-1] == version, "the versions before the kill")
            owner = redis.get_node_from_key(f"g:{{{loaded.id}}}")
            # the replica has every move: replication is asynchronous, and a move lost with
            # its master is not what this test is about (docs/reliability.md)
            assert await redis.execute_command("WAIT", 1, 30_000, target_nodes=owner) == 1
            master = next(node for node in cluster.nodes if node.port == owner.port)
            master.kill()
            for n in range(3, 8):  # each sent again while the store is away
                version = await play(service, loaded.id, tokens, f"failover-{n}")
            new_owner = redis.get_node_from_key(f"g:{{{loaded.id}}}")
            assert new_owner.port != owner.port, "the replica serves the game's slot"
            await until(
                lambda: seen[-1] == version, "the versions after the failover", FAILOVER_SECONDS
            )
            assert seen == list(range(1, version + 1))
    finally:
        await store.close()
