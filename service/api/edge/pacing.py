"""What a follower missed is replayed at a bounded share of the event loop.

A subscription (or event stream) that starts far behind, or comes back after a cut, is sent
every version it missed before the live ones. Each version is cheap, but thousands of them,
times every subscription one token can open, would hold the event loop for seconds and stall
every other caller of the replica. So the time spent on replayed versions (rendering and
sending them) is charged to three buckets: the process's, the caller's (its token, else its
address) and the game's. Each refills at a share of a second per second; a follower whose
bucket is empty waits until it refills. Live versions are never paced. Every
`FRAMES_PER_REQUEST` replayed versions also count as one request against the caller's rate
limits (guard.Admission), so replays cannot be used to go around them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Hashable

from service.api.edge.guard import Admission

PROCESS_SHARE = 0.25  # of the event loop, for every replay of the process together
CALLER_SHARE = 0.1  # for one caller's replays (a token, or an address without one)
GAME_SHARE = 0.1  # for the replays of one game
BURST_SECONDS = 0.005  # the longest a replay runs before it lets others have the loop
FRAMES_PER_REQUEST = 100  # replayed versions that count as one request against rate limits
YIELD_EVERY = 16  # replayed versions sent before a replay lets others run, in budget or not


class Bucket:
    """Seconds of loop time, refilled at `share` per second, up to BURST_SECONDS."""

    __slots__ = ("last", "level", "share")

    def __init__(self, share: float, now: float) -> None:
        self.share, self.level, self.last = share, BURST_SECONDS, now

    def charge(self, seconds: float, now: float) -> float:
        """Take `seconds`; how long to wait until the bucket is back above empty."""
        self.level = min(BURST_SECONDS, self.level + (now - self.last) * self.share) - seconds
        self.last = now
        return 0.0 if self.level >= 0 else -self.level / self.share


class Pacer:
    """The buckets of one process, shared by every follower."""

    def __init__(self, admission: Admission | None = None) -> None:
        self.admission = admission
        self.process = Bucket(PROCESS_SHARE, time.monotonic())
        self.buckets: dict[Hashable, Bucket] = {}

    def replay(self, token: str | None, address: str, game_id: str) -> Replay:
        return Replay(self, token, address, game_id)

    def charge(self, keys: tuple[Hashable, Hashable], seconds: float) -> float:
        now = time.monotonic()
        wait = self.process.charge(seconds, now)
        for key, share in zip(keys, (CALLER_SHARE, GAME_SHARE), strict=True):
            bucket = self.buckets.get(key)
            if bucket is None:
                bucket = self.buckets[key] = Bucket(share, now)
            wait = max(wait, bucket.charge(seconds, now))
        self._forget_full(now)
        return wait

    def _forget_full(self, now: float) -> None:
        """Buckets that refilled are dropped, so the table holds only callers replaying now."""
        if len(self.buckets) > 1024:
            for key, bucket in list(self.buckets.items()):
                if bucket.level + (now - bucket.last) * bucket.share >= BURST_SECONDS:
                    del self.buckets[key]


class Replay:
    """One follower's replayed versions: `await paced(seconds)` after sending each."""

    __slots__ = ("address", "keys", "pacer", "sent", "token")

    def __init__(self, pacer: Pacer, token: str | None, address: str, game_id: str) -> None:
        self.pacer, self.token, self.address, self.sent = pacer, token, address, 0
        self.keys: tuple[Hashable, Hashable] = (("caller", token or address), ("game", game_id))

    async def paced(self, seconds: float) -> None:
        """Charge one replayed version that took `seconds` to render and send, and wait as
        long as the buckets (and the rate limits, every FRAMES_PER_REQUEST) say."""
        self.sent += 1
        wait = self.pacer.charge(self.keys, seconds)
        admission = self.pacer.admission
        if admission is not None and self.sent % FRAMES_PER_REQUEST == 0:
            wait = max(wait, admission.admit(self.token, self.address) or 0.0)
        if wait > 0 or self.sent % YIELD_EVERY == 0:
            await asyncio.sleep(wait)
