"""The rate limiter counts what it has pushed to Redis until Redis answers with the totals.

A sync hands the window's local counts to a pipeline; while that pipeline was out, those counts
were neither pending nor shared, so a request arriving then was admitted past the limit (CI saw
OK, RATE_LIMITED, OK on one token). The Redis server's writes are paused to hold a sync open.
"""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from service.api.edge.ratelimit import RateLimiter

BOUND = 60.0


async def test_counts_in_flight_to_redis_still_count_against_the_limit(redis_url: str) -> None:
    if "cluster" in redis_url:
        pytest.skip("pauses one server's writes")
    client, admin = aioredis.Redis.from_url(redis_url), aioredis.Redis.from_url(redis_url)
    # the limiter's clock stands mid-minute: a minute turning during the test would reset counts
    limiter = RateLimiter(client, {"token": 2}, sync_seconds=3600, clock=lambda: 30.0)
    subject = {"token": "in-flight"}
    try:
        assert limiter.admit(subject) is None
        await admin.execute_command("CLIENT", "PAUSE", int(BOUND * 1000), "WRITE")
        syncing = asyncio.create_task(limiter.sync())
        async with asyncio.timeout(BOUND):
            while not limiter.inflight:  # the sync has handed its counts to the pipeline
                await asyncio.sleep(0.01)
        assert limiter.admit(subject) is None, "the second of two is admitted"
        assert limiter.admit(subject) is not None, "the one in flight still counts"
        await admin.execute_command("CLIENT", "UNPAUSE")
        async with asyncio.timeout(BOUND):
            await syncing
        assert limiter.admit(subject) is not None, "and so does Redis's total after the sync"
    finally:
        await admin.execute_command("CLIENT", "UNPAUSE")
        await limiter.close()
        await client.aclose()
        await admin.aclose()
