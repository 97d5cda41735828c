"""The matchmaking sweep: every tenant's pools, each pass, as the seekers' rating windows widen
with their wait (service/core/lobby). Matches a maker left unsettled (it died between the match
and its game) are claimed from the tenant's stream of matches first and their games created.
Any worker may sweep at the same time as the others and as the replicas' enters: each attempt
is one script, so a player is matched once."""

from __future__ import annotations

import logging

from service.core.lobby import Lobby
from service.store import RedisStore, StoreUnavailable
from service.worker.shared import Shared

log = logging.getLogger("service.worker")
SWEEP_SECONDS = 1.0  # between passes: a window widens by WINDOW.growth a second


class Matchmaker:
    def __init__(self, store: RedisStore, tenants: list[str], shared: Shared, name: str) -> None:
        self.lobby = Lobby(store, consumer=f"worker-{name}")
        self.tenants = [tenant for tenant in tenants if tenant]
        self.shared = shared

    async def run(self) -> None:
        while not self.shared.stopping.is_set():
            await self.shared.redis_call(self.once)
            self.shared.heartbeat.beat("lobby")
            await self.shared.pause(SWEEP_SECONDS)

    async def once(self) -> int:
        """One pass over every tenant: unsettled matches finished, then the sweep; how many
        matches were made or finished. A tenant whose pass fails for another reason than
        Redis is logged and the pass goes on to the next."""
        reclaim = self.shared.settings.worker_reclaim_seconds
        done = 0
        for tenant in self.tenants:
            try:
                done += await self.lobby.recover(tenant, reclaim)
                done += await self.lobby.sweep(tenant)
            except StoreUnavailable:
                raise
            except Exception:
                log.exception("matchmaking of tenant %s failed this pass", tenant)
        return done
