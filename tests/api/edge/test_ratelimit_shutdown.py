"""The rate limiter's sync task ends when the app shuts down, wherever the close lands.

A cancel that arrives while a sync is inside redis-py's pipeline can be swallowed there; the
sync loop then ran on and the app's lifespan shutdown waited forever (a test run
that sat idle in tests/api/edge/test_hostile.py). Closing at many points of the sync cycle pins it.
"""

from __future__ import annotations

import asyncio
import random

from service.api.edge.ratelimit import RateLimiter
from service.settings import Settings
from service.store import connect

BOUND = 60.0  # seconds per close; it takes milliseconds


async def test_closing_the_rate_limiter_ends_its_sync_task_wherever_the_close_lands(
    redis_url: str,
) -> None:
    chooser = random.Random(17)
    for attempt in range(40):
        # the app's own client (one server or a cluster), commands bounded by a socket timeout
        client = connect(Settings(), redis_url)
        try:
            limiter = RateLimiter(client, {"token": 10**6}, sync_seconds=0.001)
            for _ in range(chooser.randint(1, 20)):
                assert limiter.admit({"token": f"close-{attempt}"}) is None
                await asyncio.sleep(chooser.random() * 0.003)
            task = limiter.task
            assert task is not None
            # Not asyncio.timeout: close() suppresses CancelledError, a timeout's cancel too.
            closing = asyncio.create_task(limiter.close())
            done, _ = await asyncio.wait({closing}, timeout=BOUND)
            assert closing in done, f"attempt {attempt}: close() still waits for the sync task"
            assert task.done()
        finally:
            await client.aclose()
