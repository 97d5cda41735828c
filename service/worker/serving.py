"""serve(): one worker run until SIGTERM or SIGINT drains it, for each worker process."""

from __future__ import annotations

import asyncio
import logging
import signal

from service.settings import Settings
from service.worker.heartbeat import Heartbeat
from service.worker.worker import Worker

log = logging.getLogger("service.worker")


async def serve(settings: Settings, redis_url: str, name: str, heartbeat: Heartbeat) -> None:
    """Run one worker until SIGTERM or SIGINT: a drain (the job in hand is finished first)."""
    worker = Worker(settings, redis_url, name, heartbeat)

    def stop() -> None:
        if not worker.stopping.is_set():
            log.info(
                "worker %s draining: no new job, the one in hand finished within %g s",
                name,
                settings.worker_drain_seconds,
            )
        worker.stop()

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop)
    await worker.run()
    log.info("worker %s stopped", name)
