"""RULES_REPLICA_ACK on a Redis Cluster of 3 masters and 3 replicas: the WAIT goes to the
master of the game's slot on the script's connection, a shard whose replica is frozen answers
UNAVAILABLE while the others go on, and after its master is SIGKILLed and its replica takes
over, every acknowledged write is there."""

from __future__ import annotations

import dataclasses
import os
import secrets
import signal
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from service.settings import Settings
from service.store import Done, NotReplicated, RedisStore, StoreUnavailable, connect
from service.store.connection import reread_slots
from service.store.embedded import EmbeddedRedis, EmbeddedRedisCluster, ExitedEarly, ask, free_port
from service.store.embedded import _cluster_options as cluster_options
from service.store.jobs import LANES
from service.store.outbox import enabled_key
from service.webhooks.endpoints import EndpointStore
from service.webhooks.model import endpoints_key
from tests.support import factories
from tests.support.waiting import until

pytestmark = pytest.mark.slow  # six servers and a failover

# a generous wait: a live replica on a busy machine may take long to confirm
SETTINGS = Settings(
    active_ttl=600, finished_ttl=600, redis_timeout=10.0, replica_ack=1, replica_ack_timeout_ms=2000
)


def _start(replica: EmbeddedRedis) -> None:
    """replica.start(), on another bus port too if its own was taken meanwhile (start() moves
    only the client port; another test's server, Redis or PostgreSQL, may take either)."""
    for _ in range(3):
        try:
            replica.start()
            return
        except ExitedEarly:
            replica.extra = cluster_options(free_port())
    replica.start()


class ReplicatedCluster:
    """An EmbeddedRedisCluster (3 masters) and one replica per master, joined with
    CLUSTER MEET and CLUSTER REPLICATE."""

    def __init__(self) -> None:
        self.cluster = EmbeddedRedisCluster()
        self.replicas = [EmbeddedRedis(extra=cluster_options(free_port())) for _ in range(3)]

    @property
    def masters(self) -> list[EmbeddedRedis]:
        return self.cluster.nodes

    @property
    def url(self) -> str:
        return self.cluster.url

    def node_id(self, server: EmbeddedRedis) -> str:
        return ask(server.port, "CLUSTER", "MYID").decode()

    def replica_of(self, master_id: str) -> EmbeddedRedis:
        for replica in self.replicas:
            text = ask(replica.port, "INFO", "replication").decode()
            if f"master_port:{self._port_of(master_id)}" in text.split():
                return replica
        raise AssertionError(f"no replica of {master_id}")

    def _port_of(self, node_id: str) -> int:
        for line in ask(self.masters[0].port, "CLUSTER", "NODES").decode().splitlines():
            fields = line.split()
            if fields[0] == node_id:
                return int(fields[1].split("@")[0].rsplit(":", 1)[1])
        raise AssertionError(f"no node {node_id}")

    async def start(self) -> ReplicatedCluster:
        self.cluster.start()
        for replica, master in zip(self.replicas, self.masters, strict=True):
            _start(replica)
            # Every master is met, not one left to spread the news by gossip: a master that
            # has not finished its handshake with a replica when the test freezes that replica
            # drops it after the handshake timeout and never hears of it again; the replica's
            # TAKEOVER then never reaches that master, which names the dead master for good
            # (cluster_state:fail, the client's map sent back to the dead node: a CI-style
            # run's failover wait timed out so).
            for other, bus in zip(self.masters, self.cluster.bus_ports, strict=True):
                ask(replica.port, "CLUSTER", "MEET", "127.0.0.1", other.port, bus)

            def known(replica: EmbeddedRedis = replica, master: EmbeddedRedis = master) -> bool:
                return self.node_id(master) in ask(replica.port, "CLUSTER", "NODES").decode()

            await until(known, "the replica to meet the cluster")
            ask(replica.port, "CLUSTER", "REPLICATE", self.node_id(master))

        def linked() -> bool:
            infos = [ask(r.port, "INFO", "replication").decode() for r in self.replicas]
            return all("master_link_status:up" in info.split() for info in infos)

        def served() -> bool:  # a replica answers READONLY reads only once it sees every slot
            infos = [ask(r.port, "CLUSTER", "INFO").decode() for r in self.replicas]
            return all("cluster_state:ok" in info.split() for info in infos)

        def acquainted() -> bool:  # every node knows every other, handshakes done
            for node in (*self.masters, *self.replicas):
                lines = ask(node.port, "CLUSTER", "NODES").decode().splitlines()
                flags = [line.split()[2].split(",") for line in lines]
                if len(lines) != 6 or any({"handshake", "noaddr"} & set(f) for f in flags):
                    return False
                if any(line.split()[7] != "connected" for line in lines):
                    return False
            return True

        await until(linked, "every replica to copy its master")
        await until(served, "every replica to see the whole cluster")
        await until(acquainted, "every node to know every other")
        return self

    def cleanup(self) -> None:
        for replica in self.replicas:
            if replica.process is not None:
                os.kill(replica.process.pid, signal.SIGCONT)
            replica.cleanup()
        self.cluster.cleanup()


@pytest.fixture
async def cluster() -> AsyncIterator[ReplicatedCluster]:
    cluster = ReplicatedCluster()
    try:
        yield await cluster.start()
    finally:
        cluster.cleanup()


@pytest.fixture
async def store(cluster: ReplicatedCluster) -> AsyncIterator[RedisStore]:
    store = RedisStore(connect(SETTINGS, cluster.url), SETTINGS)
    yield store
    await store.close()


async def _on_replica(replica: EmbeddedRedis, game_id: str) -> int | None:
    """The game's version as `replica` holds it (READONLY: a replica answers for its slots)."""
    client = Redis(port=replica.port, single_connection_client=True)
    try:
        await client.execute_command("READONLY")
        raw = await client.hget(f"g:{{{game_id}}}", "v")
        return None if raw is None else int(raw)
    finally:
        await client.aclose()


def _master_of(store: RedisStore, game_id: str) -> str:
    assert isinstance(store.redis, RedisCluster)
    node = store.redis.get_node_from_key(f"g:{{{game_id}}}")
    return node.name


async def _games_on_two_shards(store: RedisStore) -> tuple[str, str]:
    """Two new games (version 1) whose slots two different masters own."""
    assert isinstance(store.redis, RedisCluster)
    await store.redis.initialize()
    first = secrets.token_hex(6)
    second = secrets.token_hex(6)
    while _master_of(store, second) == _master_of(store, first):
        second = secrets.token_hex(6)
    for game_id in (first, second):
        assert await store.create(game_id, factories.record(1), [factories.history_entry(1)])
    return first, second


async def test_a_frozen_replica_holds_back_its_shard_only_and_a_failover_keeps_every_ack(
    cluster: ReplicatedCluster, store: RedisStore
) -> None:
    game, other = await _games_on_two_shards(store)
    master = next(m for m in cluster.masters if f"127.0.0.1:{m.port}" == _master_of(store, game))
    replica = cluster.replica_of(cluster.node_id(master))
    acknowledged = await store.commit(
        game, 1, factories.record(2), [factories.history_entry(2)], "0:a"
    )
    assert acknowledged.outcome == "ok"
    assert await _on_replica(replica, game) == 2  # at once: the WAIT went to the right node

    assert replica.process is not None
    os.kill(replica.process.pid, signal.SIGSTOP)
    try:
        with pytest.raises(NotReplicated):
            await store.commit(game, 2, factories.record(3), [factories.history_entry(3)], "0:b")
        # the other shard's replica is awake: its writes are acknowledged as usual
        done = await store.commit(other, 1, factories.record(2), [factories.history_entry(2)], None)
        assert done.outcome == "ok"
        with pytest.raises(NotReplicated):  # a replayed answer waits too
            await store.confirm_replicated(game, 3, "ACTIVE")
    finally:
        os.kill(replica.process.pid, signal.SIGCONT)

    async def caught_up() -> bool:
        return await _on_replica(replica, game) == 3

    await until(caught_up, "the replica to catch up")
    await store.confirm_replicated(game, 3, "ACTIVE")  # the retry of "0:b" is acknowledged now

    # the master dies; its replica takes over (no vote needed); every acknowledged write is there
    master.kill()
    ask(replica.port, "CLUSTER", "FAILOVER", "TAKEOVER")
    await _until_the_cluster_follows(cluster, store, game, replica)
    assert await _on_replica(replica, game) == 3

    # the new master has no replica yet: its writes are not acknowledged
    async def refused_as_unreplicated() -> bool:
        try:
            await store.commit(game, 3, factories.record(4), [factories.history_entry(4)], "0:c")
        except NotReplicated:
            return True
        except StoreUnavailable:
            return False  # a try that met a connection the dead master left in the pool
        raise AssertionError("a write acknowledged without a replica")

    # the map already names the new master (above): a retry is only for a stale connection
    await until(refused_as_unreplicated, "the new master to answer")
    # the old master comes back as the new master's replica: the retry is acknowledged
    master.start()

    async def replayed() -> bool:
        record, done = await store.load(game, "0:c")
        if done is None:
            return False
        try:
            await store.confirm_replicated(game, 4, "ACTIVE")
        except StoreUnavailable:
            return False
        return record is not None and record.version == 4

    await until(replayed, "the old master to rejoin as a replica")
    assert await _on_replica(master, game) == 4


async def test_a_replay_read_from_a_master_is_not_confirmed_by_the_replica_that_replaced_it(
    cluster: ReplicatedCluster, store: RedisStore
) -> None:
    """A move's first try is on its master only (the replica lags, cut off: UNAVAILABLE); its
    retry reads the key's entry there; then the master dies, the replica that never got the
    move takes over and takes another move at that version. The retry's confirmation reaches
    the slot's new master (once the store has read the map of slots again): the version is
    there, the entry is not, so it is UNAVAILABLE, not a replay of a move the game does not
    hold (the version alone, all the confirmation compared before, would pass)."""
    quick = dataclasses.replace(SETTINGS, replica_ack_timeout_ms=200)
    hurried = RedisStore(connect(quick, cluster.url), quick)
    try:
        assert isinstance(hurried.redis, RedisCluster)
        await hurried.redis.initialize()
        game, _ = await _games_on_two_shards(store)
        master = next(
            m for m in cluster.masters if f"127.0.0.1:{m.port}" == _master_of(store, game)
        )
        replica = cluster.replica_of(cluster.node_id(master))
        assert replica.process is not None
        os.kill(replica.process.pid, signal.SIGSTOP)
        try:
            ask(master.port, "CLIENT", "KILL", "TYPE", "replica")  # what follows never reaches it
            with pytest.raises(NotReplicated):
                await hurried.commit(game, 1, factories.record(2), [factories.history_entry(2)],
                                     "0:mine", "mine")  # fmt: skip
            record, done = await store.load(game, "0:mine")  # the retry's read, on the old master
            assert record is not None and done == Done(2, "mine", "0:mine")
            master.kill()
        finally:
            os.kill(replica.process.pid, signal.SIGCONT)
        ask(replica.port, "CLUSTER", "FAILOVER", "TAKEOVER")
        await _until_the_cluster_follows(cluster, hurried, game, replica)

        async def theirs() -> bool:  # another move at version 2, on the new master
            try:
                await hurried.commit(game, 1, factories.record(2), [factories.history_entry(2, 1)],
                                     "1:theirs", "theirs")  # fmt: skip
            except NotReplicated:
                return True  # written; no replica to confirm it yet
            except StoreUnavailable:
                return False  # the dead master, or a map not read again yet
            raise AssertionError("acknowledged without a replica")

        await until(theirs, "the replica to take over")
        master.start()  # back, as the new master's replica: WAITs are confirmed again

        async def confirmed() -> bool:
            try:
                await store.confirm_replicated(game, 2, "ACTIVE")  # the version alone: it is there
            except StoreUnavailable:
                return False
            return True

        await until(confirmed, "the old master to rejoin as a replica")
        with pytest.raises(StoreUnavailable) as refused:
            await store.confirm_replicated(game, record.version, record.status(), done)
        assert not isinstance(refused.value, NotReplicated)
        assert (await store.load(game, "0:mine"))[1] is None  # its retry decides the move anew
    finally:
        await hurried.close()


def _owner_seen_by(port: int, slot: int) -> tuple[str, list[str]] | None:
    """The id and flags of the master that the node on `port` says serves `slot`."""
    for line in ask(port, "CLUSTER", "NODES").decode().splitlines():
        fields = line.split()
        for served in fields[8:]:
            if served.startswith("["):  # a slot being migrated or imported
                continue
            first, _, last = served.partition("-")
            if int(first) <= slot <= int(last or first):
                return fields[0], fields[2].split(",")
    return None


async def _until_the_cluster_follows(
    cluster: ReplicatedCluster, store: RedisStore, game_id: str, promoted: EmbeddedRedis
) -> None:
    """Wait for the failover itself rather than for a write to get through: `promoted` says it
    is a master, every live node says it serves the game's slot and none flags it failing, and
    then the store's own map of slots, read again, names it. The old wait looked only at the
    promoted replica's role and left the rest to a loop of writes, where a try that met a node
    not yet told (or a map read from one) failed and a try could wait out REDIS_TIMEOUT (10 s);
    a timeout now says what each node saw."""
    redis = store.redis
    assert isinstance(redis, RedisCluster)
    slot = redis.keyslot(f"g:{{{game_id}}}")
    new_id = cluster.node_id(promoted)
    live = [node for node in (*cluster.masters, *cluster.replicas) if node.process is not None]
    seen: dict[str, object] = {}

    def agreed() -> bool:
        seen.clear()
        replication = ask(promoted.port, "INFO", "replication").decode().split()
        seen["promoted"] = [field for field in replication if field.startswith("role:")]
        if "role:master" not in replication:
            return False
        for node in live:
            seen[str(node.port)] = owner = _owner_seen_by(node.port, slot)
            if owner is None or owner[0] != new_id or {"fail", "fail?"} & set(owner[1]):
                return False
        return "cluster_state:ok" in ask(promoted.port, "CLUSTER", "INFO").decode().split()

    try:
        await until(agreed, f"every live node to name {new_id} for slot {slot}", 180)
    except AssertionError as failed:
        raise AssertionError(f"{failed}; the nodes said (port: owner, flags): {seen}") from None

    async def mapped() -> bool:
        return await reread_slots(redis) and _master_of(store, game_id) == (
            f"127.0.0.1:{promoted.port}"
        )

    await until(mapped, "the store's map of slots to name the promoted replica")


async def _exists_on_replica(replica: EmbeddedRedis, key: str) -> bool:
    client = Redis(port=replica.port, single_connection_client=True)
    try:
        await client.execute_command("READONLY")
        return bool(await client.exists(key))
    finally:
        await client.aclose()


async def test_endpoint_changes_wait_for_the_replica_of_each_master_they_wrote(
    cluster: ReplicatedCluster, store: RedisStore
) -> None:
    """A tenant's endpoints live in its slot, its switches in every lane's slot (all three
    masters): each server's share waits for that server's own replica. Frozen, the replica of
    a master holding only switches fails the changes that set them, not the others."""
    assert isinstance(store.redis, RedisCluster)
    await store.redis.initialize()
    endpoints = EndpointStore(store, SETTINGS)
    tenant = "t-" + secrets.token_hex(4)
    endpoint = await endpoints.create(tenant, "https://93.184.215.14/hook", None, None)
    switched = set()
    for lane in range(LANES):
        key = enabled_key(lane, tenant)
        master = store.redis.get_node_from_key(key).name
        switched.add(master)
        replica = cluster.replica_of(cluster.node_id(_server(cluster, master)))
        assert await _exists_on_replica(replica, key), key  # at once: its master's WAIT

    home = store.redis.get_node_from_key(endpoints_key(tenant)).name
    elsewhere = _server(cluster, sorted(switched - {home})[0])
    frozen = cluster.replica_of(cluster.node_id(elsewhere))
    assert frozen.process is not None
    os.kill(frozen.process.pid, signal.SIGSTOP)
    try:
        rotated = await endpoints.rotate(tenant, endpoint.id)  # the tenant's slot: acknowledged
        assert rotated is not None and rotated.previous_secret == endpoint.secret
        with pytest.raises(NotReplicated):  # the switches off, on the frozen replica's shard too
            await endpoints.update(tenant, endpoint.id, enabled=False)
    finally:
        os.kill(frozen.process.pid, signal.SIGCONT)


def _server(cluster: ReplicatedCluster, name: str) -> EmbeddedRedis:
    return next(m for m in cluster.masters if f"127.0.0.1:{m.port}" == name)
