"""Worker: the loops of one worker process (jobs, sweep, wake-ups, clocks, webhooks, and with
DATABASE_URL the ratings and the archive), composed."""

from __future__ import annotations

import asyncio

from service.core.access.keys import tenant_names
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.jobs import Job, JobQueue
from service.webhooks.deliverer import Deliverer
from service.worker.archiving import Archiver
from service.worker.clocks import Clocks
from service.worker.containment import Containment
from service.worker.heartbeat import Heartbeat
from service.worker.jobs import Due, Jobs
from service.worker.lobby import Matchmaker
from service.worker.rating import RatingPass
from service.worker.shared import Shared
from service.worker.sweep import Listener, Sweep


class Worker:
    """One worker: its loops on one event loop, sharing the lanes due (Due) and what every loop
    is given (Shared)."""

    def __init__(
        self, settings: Settings, redis_url: str, name: str, heartbeat: Heartbeat | None = None
    ) -> None:
        self.settings = settings
        self.heartbeat = heartbeat or Heartbeat(settings.worker_stall_seconds)
        self.store = RedisStore(connect(settings, redis_url), settings)
        tenants = tenant_names(settings.api_keys)
        reclaim_ms = int(settings.worker_reclaim_seconds * 1000)
        self.queue = JobQueue(self.store.redis, name, reclaim_ms, tenants)
        self.tenants = self.queue.tenants  # "" first: the lanes' own streams
        self.stopping = asyncio.Event()
        self.due = Due(self.tenants)
        self.webhooks = Deliverer(self.store, settings, name, tenants)
        self.shared = shared = Shared(
            settings, self.heartbeat, Containment(self.store), self.stopping
        )
        self.jobs = Jobs(self.store, self.queue, self.due, shared)
        self.sweep = Sweep(self.queue, self.due, shared)
        self.listener = Listener(self.store.redis, self.tenants, self.due, self.webhooks, shared)
        self.clocks = Clocks(self.store, self.tenants, shared)
        self.matchmaker = Matchmaker(self.store, self.tenants, shared, name)
        self.archiver = Archiver(self.store, shared) if settings.database_url else None
        self.rating = (
            RatingPass(self.store, shared, self.archiver.ledger) if self.archiver else None
        )

    def stop(self) -> None:
        """Take no new job, finish the one in hand (within RULES_WORKER_DRAIN_SECONDS), then
        return from run()."""
        self.stopping.set()
        self.due.rung.set()

    async def run(self) -> None:
        async def groups() -> bool:
            await self.queue.ensure_groups()
            return True

        while not self.stopping.is_set() and not await self.shared.redis_call(groups):
            self.heartbeat.beat("jobs")  # Redis is not there yet
        background = [
            asyncio.create_task(self.listener.run()),
            asyncio.create_task(self.sweep.run()),
            asyncio.create_task(self.clocks.run()),
            asyncio.create_task(self.matchmaker.run()),
            asyncio.create_task(self.webhooks.run(self.stopping)),
            *([asyncio.create_task(self.archiver.run())] if self.archiver else []),
            *([asyncio.create_task(self.rating.run())] if self.rating else []),
        ]
        try:
            await self.jobs.run()
        finally:
            # The sweepers and the deliverer end by themselves once stopping is set (redis-py
            # may swallow a cancellation in the middle of a command); the listener waits on a
            # socket.
            background[0].cancel()
            self.webhooks.rung.set()
            grace = self.settings.redis_timeout * 3 + self.settings.webhook_timeout_seconds
            await asyncio.wait(background, timeout=grace)
            await self.store.close()

    async def play(self, job: Job) -> str:
        """Play one job (Jobs.play)."""
        return await self.jobs.play(job)

    async def _clocks(self) -> float:
        """One pass of the clock sweep (Clocks.sweep); when the next one is due."""
        return await self.clocks.sweep()
