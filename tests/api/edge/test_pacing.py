"""Replays of missed versions are paced (service/api/edge/pacing.py): a caller gets at most
its share of the event loop, the process at most its own, and every FRAMES_PER_REQUEST
replayed versions count as a request against the rate limits. Only lower bounds on time are
asserted: a busy machine makes a replay slower, never faster."""

from __future__ import annotations

import asyncio
import time

import redis.asyncio as aioredis

from service.api.edge import pacing
from service.api.edge.guard import Admission
from service.api.edge.pacing import Pacer
from service.api.edge.ratelimit import RateLimiter


def test_a_bucket_refills_at_its_share_and_holds_at_most_a_burst() -> None:
    bucket = pacing.Bucket(0.1, now=0.0)
    assert bucket.charge(pacing.BURST_SECONDS, now=0.0) == 0.0  # the burst is free
    assert bucket.charge(0.01, now=0.0) == 0.01 / 0.1  # then 10 ms cost 100 ms of waiting
    bucket = pacing.Bucket(0.1, now=0.0)
    bucket.charge(0.0, now=1000.0)  # an idle hour refills no more than one burst
    assert bucket.level == pacing.BURST_SECONDS


async def test_a_callers_replay_takes_at_least_what_its_share_allows() -> None:
    replay = Pacer().replay("token", "10.0.0.1", "game")
    started = time.monotonic()
    for _ in range(5):
        await replay.paced(0.004)  # 20 ms of replay at a share of 0.1: 200 ms at least
    spent = 5 * 0.004 - pacing.BURST_SECONDS
    assert time.monotonic() - started >= spent / pacing.CALLER_SHARE * 0.95


async def test_callers_of_other_games_share_only_the_process_budget() -> None:
    pacer = Pacer()
    hungry = pacer.replay("a", "10.0.0.1", "game-a")
    wait = pacer.charge(hungry.keys, 0.02)  # empties its caller's and its game's buckets
    assert wait >= (0.02 - pacing.BURST_SECONDS) / pacing.CALLER_SHARE * 0.99
    polite = pacer.replay("b", "10.0.0.2", "game-b")
    # b waits only for the process's share (0.25), not for a's caller or game bucket
    assert pacer.charge(polite.keys, 0.0) <= wait * pacing.CALLER_SHARE / pacing.PROCESS_SHARE


async def test_every_hundred_replayed_versions_count_as_one_request(redis_url: str) -> None:
    client = aioredis.Redis.from_url(redis_url)
    # the limiter's clock stands mid-minute: a minute turning during the test would admit more
    limiter = RateLimiter(client, {"token": 2}, sync_seconds=3600, clock=lambda: 30.0)
    token = "0." + "p" * 32  # a token in its canonical form is a rate limit's subject
    try:
        replay = Pacer(Admission(limiter)).replay(token, "10.0.0.3", "pacing-game")
        for _ in range(2 * pacing.FRAMES_PER_REQUEST):  # two requests' worth: admitted
            await replay.paced(0.0)
        for _ in range(pacing.FRAMES_PER_REQUEST - 1):
            await replay.paced(0.0)
        try:  # the third request's worth is refused until the minute turns (never here): it waits
            await asyncio.wait_for(replay.paced(0.0), 1)
        except TimeoutError:
            return
        raise AssertionError("the replay went on past the token's rate limit")
    finally:
        await limiter.close()
        await client.aclose()
