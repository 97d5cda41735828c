"""The one place that builds the Redis client (one server, or a cluster when the URL asks),
and the ways the store fails: StoreUnavailable, UnreadableRecord, UpgradeInProgress."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import ClusterNode, ClusterPipeline, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisClusterException, RedisError

from service.refusals import Code, Refused
from service.settings import Settings

Client = Redis | RedisCluster


class StoreUnavailable(Refused):
    """Redis could not be reached or did not answer in time. Its text (logs) says what
    failed; its message (clients) only that the store is away."""

    def __init__(self, detail: str) -> None:
        super().__init__(Code.UNAVAILABLE, "the game store is unavailable; retry shortly")
        self.detail = detail

    def __str__(self) -> str:
        return self.detail


class NotReplicated(StoreUnavailable):
    """A write the master made that fewer replicas than RULES_REPLICA_ACK confirmed in time
    (WAIT): it may be lost if the master fails now. The client retries with the same
    idempotency key; the retry answers the first result once a replica has it. A write that
    is not a game's (a webhook endpoint, a reissued token) says so in `message`."""

    def __init__(self, asked: int, confirmed: int, message: str = "") -> None:
        super().__init__(f"{confirmed} of {asked} replicas confirmed a write in time")
        self.message = message or (
            "the decision was recorded but not yet copied to a standby store; retry with the "
            "same idempotencyKey"
        )


class UnreadableRecord(Refused):
    """A game's stored data (record, history entry, folded history or idempotency entry)
    that this release cannot decode: damaged, or written by another release. Its text (logs)
    says which game and what; its message (clients) names no internals."""

    def __init__(self, game_id: str, what: str) -> None:
        super().__init__(
            Code.UNREADABLE_RECORD, "this game cannot be read at the moment: a fault on our side"
        )
        self.game_id = game_id
        self.what = what

    def __str__(self) -> str:
        return f"{self.what} of game {self.game_id} unreadable"


class UpgradeInProgress(Refused):
    """A game this release may read but not write: its record was written in a newer format
    (a write would drop the fields this release does not know), or it is played under newer
    rules of its kind than this release has (docs/reliability.md, "Rolling upgrades"). Retry
    shortly: a replica of the newer release takes it. Its text (logs) says what is newer."""

    def __init__(self, game_id: str, detail: str) -> None:
        super().__init__(
            Code.UPGRADE_IN_PROGRESS,
            "this game was last played by a newer release of the service, which is being "
            "rolled out: retry shortly (with the same idempotency key)",
        )
        self.game_id = game_id
        self.detail = detail

    def __str__(self) -> str:
        return f"game {self.game_id} is for a newer release ({self.detail})"


CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
_TRUE = {"1", "true", "yes", "on"}


def cluster_url(url: str) -> str | None:
    """The plain redis:// URL of a cluster seed list, or None if `url` names one server.

    A cluster is asked for with the scheme `redis+cluster://` (`rediss+cluster://` for TLS) or
    the query `?cluster=true`; the host part may list several seeds, `host1:port1,host2:port2`.
    """
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    flag = [value for name, value in query if name == "cluster"]
    if parts.scheme not in CLUSTER_SCHEMES and not any(v.lower() in _TRUE for v in flag):
        return None
    scheme = CLUSTER_SCHEMES.get(parts.scheme, parts.scheme)
    rest = urlencode([(name, value) for name, value in query if name != "cluster"])
    return urlunsplit((scheme, parts.netloc, parts.path, rest, parts.fragment))


def _seeds(url: str) -> tuple[str, list[ClusterNode]]:
    """The URL of the first seed and every seed as a node (ports default to 6379)."""
    parts = urlsplit(url)
    credentials, _, hosts = parts.netloc.rpartition("@")
    nodes: list[ClusterNode] = []
    for seed in hosts.split(","):
        host, _, port = seed.strip().rpartition(":") if ":" in seed else (seed, "", "6379")
        nodes.append(ClusterNode(host.strip("[]"), int(port or 6379)))
    first = f"{credentials}@{hosts.split(',')[0]}" if credentials else hosts.split(",")[0]
    return urlunsplit((parts.scheme, first, parts.path, parts.query, parts.fragment)), nodes


class WaitingCluster(RedisCluster):
    """A cluster client whose commands wait for a connection, as a single server's
    BlockingConnectionPool makes them wait. redis-py's cluster node refuses a command beyond its
    `max_connections` with MaxConnectionsError, a ConnectionError, and on that error marks the
    node's connections in use for reconnection, so a burst of requests also failed commands in
    flight ("Connection closed by server"). At most `max_connections` commands and pipelines run
    at once here, so no node is ever asked for more connections than that."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.room = asyncio.Semaphore(kwargs.get("max_connections", 2**31))

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        async with self.room:
            return await super().execute_command(*args, **kwargs)

    def pipeline(self, transaction: Any | None = None, shard_hint: Any | None = None) -> Any:
        return WaitingPipeline(self, transaction)  # type: ignore[abstract]  # as redis-py makes its own


class WaitingPipeline(ClusterPipeline):
    """A pipeline of a WaitingCluster: it waits for room as a command does."""

    cluster_client: WaitingCluster

    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> Any:
        async with self.cluster_client.room:
            return await super().execute(raise_on_error, allow_redirections)


def connect(settings: Settings, url: str) -> Client:
    """The one place that builds the Redis client: one server, or a cluster when `url` asks."""
    seeds = cluster_url(url)
    if seeds is not None:
        first, nodes = _seeds(seeds)
        return WaitingCluster.from_url(
            first,
            startup_nodes=nodes[1:] or None,  # the first one is in the URL
            max_connections=settings.redis_pool_size,
            socket_timeout=settings.redis_timeout,
            socket_connect_timeout=settings.redis_timeout,
            # MOVED/ASK redirects are still followed (nothing ran); failures are not retried.
            retry=Retry(NoBackoff(), 0),
        )
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=settings.redis_pool_size,
        timeout=settings.redis_timeout,
        socket_timeout=settings.redis_timeout,
        socket_connect_timeout=settings.redis_timeout,
        retry=Retry(NoBackoff(), 0),
    )
    return Redis(connection_pool=pool)


async def reread_slots(redis: RedisCluster) -> bool:
    """Read a cluster's map of slots again, from any node that answers: after a failover the
    promoted replica serves its master's slots. redis-py does this by itself only when it
    retries a single command (retries are off here) and never for a pipeline. False if no node
    answered (the map stays as it was)."""
    try:
        await redis.nodes_manager.initialize()
    except (RedisError, RedisClusterException, OSError):
        return False
    return True
