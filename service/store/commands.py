"""How the game store's commands reach Redis: timed and counted under the command's name,
every failure a StoreUnavailable, a cluster's failover followed, scripts by EVALSHA, and
several commands sent together on one connection to the server of a key.

Commands are never retried blindly (retries=0): a write whose reply is lost must not be
applied a second time; the client retries with its idempotency key instead.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import (
    ClusterDownError,
    MovedError,
    NoScriptError,
    RedisClusterException,
    RedisError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeout

from service import metrics
from service.settings import Settings
from service.store.connection import Client, StoreUnavailable, reread_slots
from service.store.direct import DirectConnections

T = TypeVar("T")
Command = tuple[Any, ...]


class Commands:
    def __init__(self, redis: Client, settings: Settings) -> None:
        self.redis = redis
        # the hot path's own connections (service/store/direct.py); a cluster routes its own
        self.direct = (
            None
            if isinstance(redis, RedisCluster)
            else DirectConnections(
                redis.connection_pool, settings.redis_pool_size, settings.redis_timeout
            )
        )
        self._remap: asyncio.Task[bool] | None = None  # a cluster's map of slots, read again

    async def timed(self, command: str, call: Callable[[], Awaitable[T]]) -> T:
        started = time.perf_counter()
        try:
            return await call()
        except (RedisError, RedisClusterException) as exc:
            # RedisClusterException: e.g. a slot no node serves in the map of slots, mid-failover
            metrics.STORE_ERRORS.labels(command).inc()
            lost = RedisConnectionError | RedisTimeout | ClusterDownError | RedisClusterException
            if isinstance(exc, lost):  # a node away, or a slot the map names no node for
                self._follow_failover()
            raise StoreUnavailable(f"the game store is unavailable ({type(exc).__name__})") from exc
        finally:
            metrics.STORE_SECONDS.labels(command).observe(time.perf_counter() - started)

    def _follow_failover(self) -> None:
        """A node of a cluster did not answer, or the map of slots names no node for a slot
        (read mid-failover, or the cluster said CLUSTERDOWN): read the map again, in the
        background and one read at a time, so the next requests reach the replica promoted in
        its place. Without this a map read while a slot had no master stayed so for good."""
        if not isinstance(self.redis, RedisCluster):
            return
        if self._remap is None or self._remap.done():
            self._remap = asyncio.get_running_loop().create_task(reread_slots(self.redis))

    async def evalsha(self, script: AsyncScript, keys: Sequence[str], args: list[Any]) -> Any:
        return (await self.script(script, keys, args, ()))[0]

    async def script(
        self, script: AsyncScript, keys: Sequence[str], args: list[Any], then: tuple[Command, ...]
    ) -> list[Any]:
        """EVALSHA straight through execute_command (redis-py's Script wrapper costs ~7% of
        a move), with the commands `then` behind it on the same connection; a NOSCRIPT reply
        means nothing ran, so loading the script and asking again is safe."""
        command = ("EVALSHA", script.sha, len(keys), *keys, *args)
        try:
            return await self.execute([command, *then], keys[0])
        except NoScriptError:
            # Loaded the way the command went: after a restart, the pool's connections, idle
            # since the hot path bypasses them, may all be stale (each fails once).
            if self.direct is not None:
                await self.execute([("SCRIPT", "LOAD", script.script)], keys[0])
            else:
                await self.redis.script_load(script.script)
            return await self.execute([command, *then], keys[0])

    async def execute(self, commands: list[Command], key: str) -> list[Any]:
        """The replies of `commands`, sent together on one connection to the server of `key`
        (on a cluster: the master of its slot, no redirect followed, so a WAIT behind a write
        always asks the server that made it; a node that does not answer has `timed` read the
        map of slots again for the next call)."""
        if self.direct is not None:
            return await self.direct.execute(commands)
        redis = self.redis
        if len(commands) == 1:
            return [await redis.execute_command(*commands[0])]
        assert isinstance(redis, RedisCluster)

        async def send() -> list[Any]:
            node = redis.get_node_from_key(key)
            if node is None:
                raise ClusterDownError(f"no node serves the slot of {key}")
            async with redis.pipeline(transaction=False) as pipe:
                for command in commands:
                    pipe.execute_command(*command, target_nodes=node)
                replies: list[Any] = await pipe.execute(allow_redirections=False)
                return replies

        try:
            return await send()
        except MovedError:
            # The slot has moved (a failover) and this process had not heard: MOVED says
            # nothing ran there, so read the map of slots again and send once more.
            if not await reread_slots(redis):
                raise
            return await send()

    async def close(self) -> None:
        """The map of slots, if it is being read again, no longer (RedisStore.close closes the
        connections)."""
        if self._remap is not None:
            self._remap.cancel()
            await asyncio.gather(self._remap, return_exceptions=True)
