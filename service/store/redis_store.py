"""The Redis store. Keys of one game share the hash tag {id}, so it runs on Redis Cluster.

    g:{id}         hash: v = version, r = msgpack Record
    g:{id}:h       list: msgpack HistoryRecord, one per version, oldest first
    g:{id}:i       hash: "<seat>:<idempotency key>" -> version after that move, and
                   "f:<seat>:<idempotency key>" -> the request's fingerprint (entries of
                   earlier releases have none; a separate field keeps their readers working)
    g:{id}:events  channel: one JSON event per new version

On a cluster (`redis+cluster://` URL or `?cluster=true`) the events are sharded pub/sub
(SPUBLISH/SSUBSCRIBE, Redis 7+): they stay on the shard that owns the game's slot instead of
being broadcast over the cluster bus to every node. Subscribers share one pub/sub connection
per process and server (service/store/events.py).

A move costs two round trips: `load` (record and idempotency entry in one pipeline) and
`commit` (one Lua script: version check, record write, history append, idempotency entry,
TTLs, one published event per new version; all or nothing).

Commands are never retried blindly (retries=0): a write whose reply is lost must not be
applied a second time; the client retries with its idempotency key instead.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import msgspec
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError, RedisError

from service import metrics
from service.settings import Settings
from service.store.records import HistoryRecord, Record, history_decoder, record_decoder

if TYPE_CHECKING:
    from service.store.events import Subscriber

T = TypeVar("T")

Client = Redis | RedisCluster

_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'r', ARGV[2])
if #ARGV > 3 then redis.call('RPUSH', KEYS[2], unpack(ARGV, 4)) end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 1
"""

# KEYS: record, history, idempotency. ARGV: expected version, new version, record, idempotency
# field ('' for none), ttl, game id, final status, request fingerprint, history entries...
_COMMIT_TEMPLATE = """
if ARGV[4] ~= '' then
  local done = redis.call('HGET', KEYS[3], ARGV[4])
  if done then return {'dup', tonumber(done)} end
end
local current = redis.call('HGET', KEYS[1], 'v')
if not current then return {'gone', 0} end
if current ~= ARGV[1] then return {'stale', tonumber(current)} end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'r', ARGV[3])
redis.call('RPUSH', KEYS[2], unpack(ARGV, 9))
if ARGV[4] ~= '' then redis.call('HSET', KEYS[3], ARGV[4], ARGV[2], 'f:' .. ARGV[4], ARGV[8]) end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[5]) end
local channel = 'g:{' .. ARGV[6] .. '}:events'
for v = tonumber(ARGV[1]) + 1, tonumber(ARGV[2]) do
  local status = 'ACTIVE'
  if v == tonumber(ARGV[2]) then status = ARGV[7] end
  redis.call('$PUBLISH', channel, cjson.encode({gameId = ARGV[6], version = v, status = status}))
end
return {'ok', tonumber(ARGV[2])}
"""


class StoreUnavailable(Exception):
    """Redis could not be reached or did not answer in time."""


class Committed(msgspec.Struct, frozen=True):
    outcome: str  # "ok", "stale", "dup" or "gone"
    version: int


class Done(msgspec.Struct, frozen=True):
    """An idempotency entry: the version its move produced and the request's fingerprint
    (None in entries written by earlier releases)."""

    version: int
    fingerprint: str | None = None


def _keys(game_id: str) -> tuple[str, str, str]:
    base = f"g:{{{game_id}}}"
    return base, f"{base}:h", f"{base}:i"


def events_channel(game_id: str) -> str:
    return f"g:{{{game_id}}}:events"


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


def connect(settings: Settings, url: str) -> Client:
    """The one place that builds the Redis client: one server, or a cluster when `url` asks."""
    seeds = cluster_url(url)
    if seeds is not None:
        first, nodes = _seeds(seeds)
        return RedisCluster.from_url(
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


class RedisStore:
    def __init__(self, redis: Client, settings: Settings) -> None:
        self.redis = redis
        self.settings = settings
        self.cluster = isinstance(redis, RedisCluster)
        publish = "SPUBLISH" if self.cluster else "PUBLISH"
        self._create = redis.register_script(_CREATE)
        self._commit = redis.register_script(_COMMIT_TEMPLATE.replace("$PUBLISH", publish))
        self._seconds: dict[str, Any] = {}
        from service.store.events import EventHub  # events.py builds on this module

        self.hub = EventHub(redis, settings.subscriber_queue, settings.redis_timeout)

    async def _timed(self, command: str, call: Callable[[], Awaitable[T]]) -> T:
        started = time.perf_counter()
        try:
            return await call()
        except RedisError as exc:
            metrics.STORE_ERRORS.labels(command).inc()
            raise StoreUnavailable(f"the game store is unavailable ({type(exc).__name__})") from exc
        finally:
            seconds = self._seconds.get(command)
            if seconds is None:
                seconds = self._seconds[command] = metrics.STORE_SECONDS.labels(command)
            seconds.observe(time.perf_counter() - started)

    async def _evalsha(self, script: AsyncScript, keys: Sequence[str], args: list[Any]) -> Any:
        """EVALSHA straight through execute_command (redis-py's Script wrapper costs ~7% of
        a move); a NOSCRIPT reply means nothing ran, so loading the script and asking again
        is safe."""
        command = ("EVALSHA", script.sha, len(keys), *keys, *args)
        try:
            return await self.redis.execute_command(*command)
        except NoScriptError:
            await self.redis.script_load(script.script)
            return await self.redis.execute_command(*command)

    def ttl(self, finished: bool) -> int:
        return self.settings.finished_ttl if finished else self.settings.active_ttl

    async def ping(self) -> bool:
        """Redis answers; on a cluster, every master answers (one down leaves slots unserved)."""
        redis = self.redis

        async def every_master() -> Any:
            assert isinstance(redis, RedisCluster)
            return await redis.execute_command("PING", target_nodes=RedisCluster.PRIMARIES)

        try:
            if isinstance(redis, RedisCluster):
                return bool(await self._timed("ping", every_master))
            return bool(await self._timed("ping", redis.ping))
        except StoreUnavailable:
            return False

    async def create(self, game_id: str, record: Record, history: list[HistoryRecord]) -> bool:
        keys = _keys(game_id)
        args: list[bytes | int | str] = [
            record.version,
            msgspec.msgpack.encode(record),
            self.ttl(record.finished),
            *(msgspec.msgpack.encode(h) for h in history),
        ]
        created = await self._timed("create", lambda: self._evalsha(self._create, keys[:2], args))
        return bool(created)

    async def load(
        self, game_id: str, idempotency: str | None = None
    ) -> tuple[Record | None, Done | None]:
        """The record and, if asked, what an earlier move with that key left (one round trip)."""
        record_key, _, idem_key = _keys(game_id)

        async def fetch() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hget(record_key, "r")
                if idempotency is not None:
                    pipe.hmget(idem_key, [idempotency, f"f:{idempotency}"])
                replies: list[Any] = await pipe.execute()
                return replies

        replies = await self._timed("load", fetch)
        record = record_decoder.decode(replies[0]) if replies[0] is not None else None
        if idempotency is None or replies[1][0] is None:
            return record, None
        version, fingerprint = replies[1]
        return record, Done(int(version), fingerprint.decode() if fingerprint else None)

    async def commit(
        self,
        game_id: str,
        expected: int,
        record: Record,
        history: list[HistoryRecord],
        idempotency: str | None,
        fingerprint: str = "",
    ) -> Committed:
        keys = _keys(game_id)
        args: list[bytes | int | str] = [
            expected,
            record.version,
            msgspec.msgpack.encode(record),
            idempotency or "",
            self.ttl(record.finished),
            game_id,
            "FINISHED" if record.finished else "ACTIVE",
            fingerprint,
            *(msgspec.msgpack.encode(h) for h in history),
        ]
        reply = await self._timed("commit", lambda: self._evalsha(self._commit, keys, args))
        return Committed(reply[0].decode(), int(reply[1]))

    async def history(
        self, game_id: str, after: int = 0, until: int | None = None
    ) -> list[HistoryRecord]:
        """Entries of versions after `after` up to `until` (inclusive; None: the latest)."""
        _, history_key, _ = _keys(game_id)
        last = -1 if until is None else until - 1
        raw: list[bytes] = await self._timed(
            "history",
            lambda: self.redis.lrange(history_key, after, last),  # type: ignore[arg-type,return-value]
        )
        return [history_decoder.decode(item) for item in raw]

    def events(
        self, game_id: str, on_drop: Callable[[], None] = lambda: None
    ) -> AbstractAsyncContextManager[Subscriber]:
        """A subscriber of one game's events (service/store/events.py); `on_drop` runs if it
        falls too far behind."""
        return self.hub.subscribe(game_id, on_drop)

    async def close(self) -> None:
        await self.hub.close()
        await self.redis.aclose()
