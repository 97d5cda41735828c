"""Game events for every local subscriber, through one pub/sub connection per Redis server.

A `gameEvents` subscription used to hold a pool connection of its own, so a few dozen
spectators could starve ordinary requests. Here one `Shard` per server (per master
on a cluster, with SSUBSCRIBE) reads every event and fans it out to the local subscribers of
its channel, each through a bounded queue: a subscriber that falls `queue_size` events behind
is dropped (its `on_drop` closes its socket) instead of letting memory grow. A channel is
subscribed when its first local subscriber arrives and unsubscribed when its last one leaves.

If the connection breaks (Redis restarted, a network cut, a master killed), the shard
reconnects with backoff and subscribes its channels again; when Redis confirms, each
subscriber gets a `RESYNC` marker, because events published meanwhile are lost and the caller
must re-read the game (service/core/reads/following.py turns that into the versions it missed). On a
cluster the shard first refreshes the map of slots and hands each channel whose slot another
master serves now (its replica, promoted by a failover; a migrated slot) to that master's
shard, and the same happens when the server itself unsubscribes a channel (`sunsubscribe`:
Redis gave the slot away). A shard subscribes again only on a master (`_is_master`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import ConnectionPool, Redis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisClusterException, RedisError

from service import metrics
from service.store.connection import Client, StoreUnavailable, reread_slots

RESYNC = b""  # the marker after a reconnect: events may have been missed, read the game again
MAX_BACKOFF_SECONDS = 1.0

log = logging.getLogger("service.events")


def events_channel(game_id: str) -> str:
    return f"g:{{{game_id}}}:events"


def _name(channel: bytes | str) -> str:
    return channel.decode() if isinstance(channel, bytes) else str(channel)


class Subscriber:
    """One local subscription: events of one game, in order, at most `size` behind. Lean on
    purpose (a list and a future, not an asyncio.Queue): a process holds thousands."""

    __slots__ = ("dropped", "events", "on_drop", "size", "waiting")

    def __init__(self, size: int, on_drop: Callable[[], None]) -> None:
        self.size = size
        self.on_drop = on_drop
        self.dropped = False
        self.events: list[bytes] = []
        self.waiting: asyncio.Future[None] | None = None

    def push(self, data: bytes) -> bool:
        """Queue one event; False (and dropped) when the subscriber is too far behind."""
        if len(self.events) >= self.size:
            self.dropped = True
            self.on_drop()
            return False
        self.events.append(data)
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_result(None)
        return True

    async def next(self) -> bytes:
        """The next event's JSON, or RESYNC."""
        while not self.events:
            self.waiting = asyncio.get_running_loop().create_future()
            try:
                await self.waiting
            finally:
                self.waiting = None
        return self.events.pop(0)


@dataclass
class Channel:
    subscribers: set[Subscriber] = field(default_factory=set)
    confirmed: asyncio.Event = field(default_factory=asyncio.Event)
    lost: bool = False  # the connection broke since Redis last confirmed this channel
    shard: Shard | None = None


# A pub/sub connection that broke: redis-py's errors, the socket's, and uvloop's RuntimeError
# for a write to a transport already closed (a command sent while the server restarts)
BROKEN = (RedisError, OSError, RuntimeError)


class Shard:
    """One pub/sub connection and the task that reads it."""

    def __init__(
        self, hub: EventHub, node: str, connect: Callable[[], Redis | RedisCluster]
    ) -> None:
        self.hub = hub
        self.node = node  # the master's name on a cluster, "" on one server
        self.connect = connect
        self.pubsub: PubSub = self._new_pubsub()
        self.names: set[str] = set()  # channels this shard carries
        self.pending: dict[str, int] = {}  # subscribe replies still due, per channel
        self.leaving: dict[str, int] = {}  # unsubscribe replies still due, per channel
        self.lock = asyncio.Lock()
        self.reader: asyncio.Task[None] | None = None
        self.closing = False

    def _new_pubsub(self) -> PubSub:
        pubsub = self.connect().pubsub()
        assert isinstance(pubsub, PubSub)
        return pubsub

    async def subscribe(self, name: str) -> None:
        self.names.add(name)
        async with self.lock:
            with contextlib.suppress(*BROKEN):  # the reader sees it and recovers
                await self._send("subscribe", name)
        if self.reader is None or self.reader.done():
            self.reader = asyncio.get_running_loop().create_task(self._read())

    async def unsubscribe(self, name: str) -> None:
        self.names.discard(name)
        async with self.lock:
            with contextlib.suppress(*BROKEN):
                await self._send("unsubscribe", name)

    async def _send(self, command: str, *names: str) -> None:
        due = self.pending if command == "subscribe" else self.leaving
        for name in names:
            due[name] = due.get(name, 0) + 1
        sharded = "s" if self.hub.sharded else ""
        await getattr(self.pubsub, sharded + command)(*names)

    async def _read(self) -> None:
        while not self.closing:
            try:
                if self.pubsub.connection is None:  # the first SUBSCRIBE could not be sent
                    raise ConnectionError("not connected")
                message = await self.pubsub.get_message(timeout=None)
                if message is not None and self._given_away(message):
                    raise ConnectionError("the server gave a channel's slot away")
            except BROKEN as exc:
                metrics.STORE_ERRORS.labels("listen").inc()
                log.warning("event connection lost (%s); reconnecting", type(exc).__name__)
                if not await self._recover():
                    return  # every channel moved to another shard; subscribe() starts again
                continue
            if message is not None:
                self._handle(message)

    def _given_away(self, message: dict[str, Any]) -> bool:
        """An unsubscribe this shard did not ask for: Redis moved the channel's slot."""
        if message["type"] not in ("unsubscribe", "sunsubscribe"):
            return False
        name = _name(message["channel"])
        due = self.leaving.pop(name, 0) - 1
        if due > 0:
            self.leaving[name] = due
        return due < 0 and name in self.names

    def _handle(self, message: dict[str, Any]) -> None:
        kind, name = message["type"], _name(message["channel"])
        if kind in ("message", "smessage"):
            self.hub.dispatch(name, message["data"])
        elif kind in ("subscribe", "ssubscribe"):
            due = self.pending.get(name, 1) - 1
            if due > 0:
                self.pending[name] = due
                return
            self.pending.pop(name, None)
            self.hub.confirm(name)

    async def _recover(self) -> bool:
        """Reconnect with backoff and subscribe every channel again, after handing the
        channels another master serves now to its shard (a cluster's failover). False when
        no channel is left here."""
        delay = 0.05
        for name in self.names:
            self.hub.lose(name)
        while not self.closing:
            await self.hub.rehome(self)
            async with self.lock:
                with contextlib.suppress(*BROKEN):
                    await self.pubsub.aclose()  # type: ignore[no-untyped-call]
                self.pubsub, self.pending, self.leaving = self._new_pubsub(), {}, {}
                if not self.names:
                    return False
                try:
                    await self.pubsub.connect()  # type: ignore[no-untyped-call]
                    if not self.hub.sharded or await self._is_master():
                        await self._send("subscribe", *sorted(self.names))
                        return True
                    log.info("%s is no master (a stale map of slots); reading it again", self.node)
                except BROKEN:
                    pass
            await asyncio.sleep(delay)
            delay = min(delay * 2, MAX_BACKOFF_SECONDS)
        return False

    async def _is_master(self) -> bool:
        """Whether this shard's node is a master. Right after a failover the map of slots
        read from a node that has not heard of it yet still names the old master, now a
        replica: it accepts SSUBSCRIBE, but the events its new master publishes reach it
        only once that master knows it as its replica, so the first ones are lost and no
        RESYNC follows."""
        role = await self.connect().execute_command("ROLE")
        return bool(role) and role[0] in (b"master", "master")

    async def close(self) -> None:
        self.closing = True  # ends the loops even if redis-py turns the cancel into a timeout
        if self.reader is not None:
            self.reader.cancel()
            await asyncio.wait({self.reader})
        with contextlib.suppress(*BROKEN):
            await self.pubsub.aclose()  # type: ignore[no-untyped-call]


class EventHub:
    """Every local subscription of one process, over one pub/sub connection per server."""

    def __init__(self, redis: Client, queue_size: int, timeout: float) -> None:
        self.redis = redis
        self.sharded = isinstance(redis, RedisCluster)
        self.queue_size = queue_size
        self.timeout = timeout
        self.channels: dict[str, Channel] = {}
        self.shards: dict[str, Shard] = {}

    @contextlib.asynccontextmanager
    async def subscribe(
        self, game_id: str, on_drop: Callable[[], None], channel_name: str | None = None
    ) -> AsyncIterator[Subscriber]:
        """A subscriber of this game's events (or of another channel, `channel_name`: a player's,
        service/store/lobby.py), once Redis has confirmed the channel (so no event committed
        after this returns can be missed)."""
        name = channel_name or events_channel(game_id)
        subscriber = Subscriber(self.queue_size, on_drop)
        channel = self.channels.get(name)
        try:
            if channel is None:
                channel = self.channels[name] = Channel({subscriber})
                channel.shard = await self._shard(name)
                await channel.shard.subscribe(name)
            else:
                channel.subscribers.add(subscriber)
            try:
                async with asyncio.timeout(self.timeout):
                    await channel.confirmed.wait()
            except TimeoutError:
                metrics.STORE_ERRORS.labels("subscribe").inc()
                raise StoreUnavailable("the game store did not confirm the subscription") from None
            yield subscriber
        finally:
            await self._leave(name, subscriber)

    async def _leave(self, name: str, subscriber: Subscriber) -> None:
        channel = self.channels.get(name)
        if channel is None:
            return
        channel.subscribers.discard(subscriber)
        if not channel.subscribers:
            del self.channels[name]
            if channel.shard is not None:
                await channel.shard.unsubscribe(name)

    def dispatch(self, name: str, data: bytes) -> None:
        channel = self.channels.get(name)
        if channel is None:
            return
        for subscriber in list(channel.subscribers):
            if not subscriber.push(data):
                channel.subscribers.discard(subscriber)
                log.info("a subscriber of %s fell %d events behind; dropped", name, self.queue_size)

    def confirm(self, name: str) -> None:
        channel = self.channels.get(name)
        if channel is None:
            return
        channel.confirmed.set()
        if channel.lost:
            channel.lost = False
            self.dispatch(name, RESYNC)

    def lose(self, name: str) -> None:
        channel = self.channels.get(name)
        if channel is not None and channel.confirmed.is_set():
            channel.lost = True

    async def _shard(self, name: str) -> Shard:
        key = ""
        if isinstance(self.redis, RedisCluster):
            try:
                await self.redis.initialize()
                node = self.redis.get_node_from_key(name)
            except (RedisError, RedisClusterException) as exc:
                raise StoreUnavailable(f"the game store is unavailable ({exc})") from exc
            if node is None:
                raise StoreUnavailable(f"no cluster node serves {name}")
            key = node.name
        return self._shard_of(key)

    def _shard_of(self, key: str) -> Shard:
        shard = self.shards.get(key)
        if shard is None:
            shard = self.shards[key] = Shard(self, key, self._connector(key))
        return shard

    async def rehome(self, shard: Shard) -> None:
        """On a cluster: read the map of slots again and move each channel of `shard` whose
        slot another master serves now to that master's shard (which subscribes it; the
        subscribers get RESYNC when it confirms). The map as it was if no node answers."""
        redis = self.redis
        if not isinstance(redis, RedisCluster) or not shard.names:
            return
        if not await reread_slots(redis):
            return
        for name in sorted(shard.names):
            try:
                node = redis.get_node_from_key(name)
            except RedisClusterException:
                continue  # the slot has no master yet
            channel = self.channels.get(name)
            if node is None or node.name == shard.node:
                continue
            shard.names.discard(name)
            if channel is not None:
                channel.shard = self._shard_of(node.name)
                await channel.shard.subscribe(name)

    def _connector(self, key: str) -> Callable[[], Redis | RedisCluster]:
        """How a shard gets its connection: the process's own client on one server, a client
        of that master on a cluster (sharded channels are served by their slot's master)."""
        redis = self.redis
        if not isinstance(redis, RedisCluster):
            return lambda: redis
        node = redis.get_node(node_name=key)
        assert node is not None
        kwargs = {k: v for k, v in node.connection_kwargs.items() if k != "event_dispatcher"}
        pool = ConnectionPool(connection_class=node.connection_class, **kwargs)
        client = Redis(connection_pool=pool)
        return lambda: client

    async def close(self) -> None:
        for shard in self.shards.values():
            await shard.close()
        self.shards.clear()
