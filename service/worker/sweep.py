"""How the job loop learns which lanes hold a job: a sweep each poll interval, and wake-ups."""

from __future__ import annotations

import logging
import random

from redis.asyncio.cluster import RedisCluster

from service import metrics
from service.store.connection import Client
from service.store.jobs import LANES, WAKE, JobQueue, job_key
from service.webhooks.deliverer import Deliverer
from service.worker.jobs import Due
from service.worker.shared import Shared

log = logging.getLogger("service.worker")


class Sweep:
    """The poll-interval sweep of the job streams: the backlog's metrics, reclaims, due lanes."""

    def __init__(self, queue: JobQueue, due: Due, shared: Shared) -> None:
        self.queue = queue
        self.due = due
        self.shared = shared

    async def run(self) -> None:
        """Every poll interval: export the backlog, reclaim jobs of dead workers and look at
        every stream that holds a job (a wake-up may have been lost); over every tenant's
        streams."""
        while not self.shared.stopping.is_set():
            await self.shared.redis_call(self.once)
            self.shared.heartbeat.beat("sweep")
            # jittered: a worker that leaves a job pending (a newer release's game) reclaims it
            # again each time it has been idle long enough; two workers polling in lockstep
            # would hand it back to the same one every time
            pause = self.shared.settings.worker_poll_seconds * random.uniform(0.75, 1.25)
            await self.shared.pause(pause)

    async def once(self) -> None:
        """One pipelined XLEN per stream says which hold a job at all (pending or new): only
        those are reclaimed from and read, so an idle worker's sweep is one command per
        stream in one round trip per server."""
        held, oldest = await self.queue.backlog()
        metrics.BOT_JOBS_PENDING.set(sum(held.values()))
        metrics.BOT_OLDEST_JOB_SECONDS.set(oldest)
        for lane, tenant in held:
            job = await self.queue.reclaim(lane, tenant)
            if job is not None:
                log.info("reclaimed job %s of %s v%d", job.entry, job.game_id, job.version)
                self.due.reclaimed.append(job)
            self.due.lanes[tenant].add(lane)
        self.due.rung.set()


class Listener:
    """The wake-up channel: a commit that queues a job names its stream, a webhook its outbox."""

    def __init__(
        self,
        redis: Client,
        tenants: list[str],
        due: Due,
        webhooks: Deliverer,
        shared: Shared,
    ) -> None:
        self.redis = redis
        self.tenants = tenants
        self.due = due
        self.webhooks = webhooks
        self.shared = shared

    async def run(self) -> None:
        while not self.shared.stopping.is_set():
            await self.shared.redis_call(self.once)

    async def once(self) -> None:
        redis = self.redis
        if isinstance(redis, RedisCluster):
            await redis.initialize()
        pubsub = redis.pubsub()
        stream_of_key = {
            job_key(lane, tenant).encode(): (lane, tenant)
            for tenant in self.tenants
            for lane in range(LANES)
        }
        try:
            await pubsub.subscribe(WAKE)
            while True:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=None)
                data = message.get("data") if message else None
                if data in stream_of_key:
                    lane, tenant = stream_of_key[data]
                    self.due.lanes[tenant].add(lane)
                    self.due.rung.set()
                elif isinstance(data, bytes) and data.startswith(b"wh:{bots-"):  # an outbox
                    self.webhooks.wake(int(data[9:].partition(b"}")[0]))
        finally:
            await pubsub.aclose()  # type: ignore[no-untyped-call]
