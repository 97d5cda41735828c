"""The clock sweep: timeouts of turn clocks that ran out with no client there to apply them."""

from __future__ import annotations

import logging
import time

from redis.exceptions import RedisError

from service.core.moves.decisions import enforce_clock
from service.store import RedisStore, StoreUnavailable, UpgradeInProgress
from service.worker.shared import Shared

log = logging.getLogger("service.worker")
CLOCK_BATCH = 4  # due clocks a pass claims per lane and tenant


class Clocks:
    """The turn clocks of every lane and tenant, swept by passes until stopping is set."""

    def __init__(self, store: RedisStore, tenants: list[str], shared: Shared) -> None:
        self.store = store
        self.tenants = tenants
        self.shared = shared
        self.served = 0  # the index of the tenant whose clocks a pass served first

    async def run(self) -> None:
        """The turn clocks: a pass when the next one is due (see sweep), a poll interval
        later at the latest (a clock set meanwhile by another process)."""
        poll = self.shared.settings.worker_poll_seconds
        while not self.shared.stopping.is_set():
            upcoming = await self.shared.redis_call(self.sweep)
            self.shared.heartbeat.beat("clocks")
            wait = poll if upcoming is None else min(max(upcoming - time.time(), 0.0), poll)
            if wait > 0:
                await self.shared.pause(wait)

    async def sweep(self) -> float:
        """Turn clocks that ran out with no client there: each due game is claimed for one
        reclaim interval (exactly one sweeper takes it) and one timeout applied through the
        version-checked commit (a last-second move that commits first wins). One per game per
        pass: a game still due is back in its tenant's set with its next deadline (the commit
        writes it), behind the games due before it. A pass claims CLOCK_BATCH games of each
        tenant in each lane and serves the tenants in turn, one game each, starting after the
        tenant served first last pass, each tenant's earliest deadline first; so one tenant's
        backlog delays another tenant's timeout by one game per tenant, and a pass applies at
        most tenants * LANES * CLOCK_BATCH timeouts. A game that fails for another reason than
        Redis is set aside and the pass goes on. Returns when the next pass is due: at once
        after a pass that found games due (their next deadlines may have come already), else
        at the first deadline (the poll interval without one)."""
        lease, now = self.shared.settings.worker_reclaim_seconds, time.time()
        firsts: dict[tuple[int, str], float | None] = {}
        firsts.update(await self.store.first_deadlines(self.tenants))
        claimed: dict[str, list[tuple[float, int, str]]] = {tenant: [] for tenant in self.tenants}
        for (lane, tenant), first in firsts.items():
            if first is not None and first <= now:  # else nothing to claim: no script runs
                batch, firsts[lane, tenant] = await self.store.claim_deadlines(
                    lane, tenant, now, lease, CLOCK_BATCH
                )
                claimed[tenant] += [(deadline, lane, game_id) for deadline, game_id in batch]
        # per tenant, latest deadline first
        queues = [sorted(claimed[tenant], reverse=True) for tenant in self.tenants]
        self.served = (self.served + 1) % len(self.tenants)
        turns = [(self.served + step) % len(self.tenants) for step in range(len(queues))]
        found = any(queues)
        while any(queues):
            for turn in turns:
                if queues[turn]:
                    _, lane, game_id = queues[turn].pop()
                    await self._clock_of(lane, self.tenants[turn], game_id, now)
        if found:
            return now
        upcoming = [first for first in firsts.values() if first is not None]
        return min(upcoming, default=now + self.shared.settings.worker_poll_seconds)

    async def _clock_of(self, lane: int, tenant: str, game_id: str, now: float) -> None:
        try:
            await self._clock(lane, tenant, game_id, now)
        except (RedisError, StoreUnavailable):
            raise
        except UpgradeInProgress as newer:  # claimed until the lease lapses, then any sweeper's
            self.shared.containment.leave("clock", newer)
        except Exception as exc:  # this game only: the sweep goes on
            await self.shared.containment.set_aside("clock", game_id, exc)
            await self.store.unclock(lane, tenant, game_id)

    async def _clock(self, lane: int, tenant: str, game_id: str, now: float) -> None:
        record, _ = await self.store.load(game_id)
        if record is None:  # expired: nothing will ever commit its clock away
            await self.store.unclock(lane, tenant, game_id)
            return
        swept = await enforce_clock(self.store, game_id, record, now, limit=1)
        if swept is not None and swept.status() != "ACTIVE":
            # over without a commit of its clock (an abandoned game waiting for players, whose
            # fill time core/players put here): no deadline will come back
            await self.store.unclock(lane, tenant, game_id)
        log.info("clock of %s swept at v%d", game_id, record.version)
