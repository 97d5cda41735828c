"""Rate limits per token (a seat's or a player's) and per client address, shared by every
replica through Redis.

A fixed one-minute window per key. Each replica decides locally, from the window's count as
Redis last told it plus what it admitted since, so limiting adds no Redis round trip to a
request (two per move is the floor, docs/architecture.md). A background task pushes the local counts with
INCRBY every `sync_seconds` and learns the shared totals back, so all replicas together admit
about `limit` requests per window (give or take what arrives within one sync interval).
Keys hold a hash of the token, never the token. If Redis is down, limiting goes on locally.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable

from redis.exceptions import RedisError

from service.store import Client

WINDOW_SECONDS = 60


class RateLimiter:
    def __init__(
        self,
        redis: Client,
        limits: dict[str, int],
        sync_seconds: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.redis = redis
        self.limits = {kind: n for kind, n in limits.items() if n > 0}
        self.sync_seconds = sync_seconds
        self.clock = clock
        self.window = -1
        self.shared: dict[str, int] = {}
        self.pending: dict[str, int] = {}
        self.inflight: dict[str, int] = {}  # pushed to Redis, total not learned back yet
        self.keys: dict[tuple[str, str], str] = {}
        self.expiring: set[str] = set()  # keys whose EXPIRE Redis has confirmed
        self.task: asyncio.Task[None] | None = None
        self.closing = False

    @property
    def enabled(self) -> bool:
        return bool(self.limits)

    def admit(self, subjects: dict[str, str | None]) -> float | None:
        """Count one request of these subjects ({"token": ..., "address": ...}); None if it
        may go on, else the seconds until the window resets."""
        now = self.clock()
        window = int(now // WINDOW_SECONDS)
        if window != self.window:
            self.window, self.shared, self.pending, self.keys = window, {}, {}, {}
            self.inflight, self.expiring = {}, set()
        keys = [
            (self._key(kind, subject), limit)
            for kind, limit in self.limits.items()
            if (subject := subjects.get(kind))
        ]
        for key, limit in keys:
            seen = self.shared.get(key, 0) + self.inflight.get(key, 0) + self.pending.get(key, 0)
            if seen >= limit:
                return (window + 1) * WINDOW_SECONDS - now
        for key, _ in keys:
            self.pending[key] = self.pending.get(key, 0) + 1
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._sync_forever())
        return None

    def _key(self, kind: str, subject: str) -> str:
        key = self.keys.get((kind, subject))
        if key is None:
            digest = hashlib.sha256(subject.encode()).hexdigest()[:24]
            key = self.keys[(kind, subject)] = f"rl:{self.window}:{kind}:{digest}"
        return key

    async def sync(self) -> None:
        """Push what this replica admitted and learn every replica's totals for those keys.
        A key this replica has not used since the last sync is left alone: it learns the
        total at the next sync after its next use (so at most one interval late)."""
        pending, self.pending = self.pending, {}
        if not pending:
            return
        self.inflight = pending  # still counted by `admit` while the pipeline is out
        new = [key for key in pending if key not in self.expiring]
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for key, count in pending.items():
                    pipe.incrby(key, count)
                for key in new:
                    pipe.expire(key, WINDOW_SECONDS * 2)
                replies = await pipe.execute()
        except RedisError:
            for key, count in pending.items():
                self.shared[key] = self.shared.get(key, 0) + count
            return
        finally:
            if self.inflight is pending:
                self.inflight = {}
        self.expiring.update(new)
        for key, total in zip(pending, replies, strict=False):
            if key.startswith(f"rl:{self.window}:"):
                self.shared[key] = max(self.shared.get(key, 0), int(total))

    async def _sync_forever(self) -> None:
        while not self.closing:
            await asyncio.sleep(self.sync_seconds)
            await self.sync()

    async def close(self) -> None:
        """Stop syncing. A cancel that lands while redis-py waits under its own timeout can
        come out as a TimeoutError, which `sync` takes for an outage; the `closing` flag
        still ends the loop, so shutdown never hangs."""
        self.closing = True
        if self.task is not None:
            self.task.cancel()
            await asyncio.wait({self.task})
            self.task = None
