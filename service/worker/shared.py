"""Shared: what every loop of one worker is given: settings, heartbeat, stop, Redis retries."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from redis.exceptions import RedisError

from service.settings import Settings
from service.store import StoreUnavailable
from service.worker.containment import Containment
from service.worker.heartbeat import Heartbeat

log = logging.getLogger("service.worker")
T = TypeVar("T")


@dataclass(frozen=True)
class Shared:
    settings: Settings
    heartbeat: Heartbeat
    containment: Containment
    stopping: asyncio.Event  # set by stop(): each loop ends after the iteration in hand

    async def pause(self, seconds: float) -> None:
        """Wait `seconds`, or until stop()."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopping.wait(), seconds)

    async def redis_call(self, call: Callable[[], Awaitable[T]]) -> T | None:
        """`call()`, or None after a Redis failure, logged in one line and followed by a
        pause of one poll interval (or until stop()). A job cut short by it stays pending and
        is reclaimed."""
        try:
            return await call()
        except (RedisError, StoreUnavailable) as exc:
            log.warning("redis unavailable (%s: %s); retrying", type(exc).__name__, exc)
            await self.pause(self.settings.worker_poll_seconds)
            return None
