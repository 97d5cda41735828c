"""Containment: a game that fails is set aside, one a newer release wrote is left for it."""

from __future__ import annotations

import logging

from service import metrics
from service.refusals import Refused
from service.store import RedisStore, UpgradeInProgress
from service.store.quarantine import set_aside

log = logging.getLogger("service.worker")
LEFT_REMEMBERED = 10_000  # games left for a newer release that a worker logs only once


class Containment:
    """Shared by the loops of one worker, so that a game left for a newer release is logged
    once, whichever loop meets it."""

    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self.left: set[str] = set()  # games left for a newer release, logged already

    async def set_aside(self, loop: str, game_id: str, exc: Exception) -> None:
        """A game that fails in `loop` for another reason than Redis: set aside with its
        reason, in one log line (no traceback: the reason names the fault) and one count."""
        reason = str(exc) if isinstance(exc, Refused) else f"{type(exc).__name__}: {exc}"
        log.warning("game %s set aside by the %s loop: %s", game_id, loop, reason)
        metrics.SET_ASIDE.labels(loop).inc()
        await set_aside(self.store.redis, game_id, loop, reason)

    def leave(self, loop: str, newer: UpgradeInProgress) -> None:
        """A game a newer release wrote, left for a worker of that release: logged once per
        game (it may come back every reclaim interval while no such worker runs), counted."""
        metrics.LEFT_FOR_NEWER.labels(loop).inc()
        if newer.game_id not in self.left:
            if len(self.left) >= LEFT_REMEMBERED:
                self.left.clear()
            self.left.add(newer.game_id)
            log.warning("%s loop left game %s for a newer release: %s", loop, newer.game_id, newer)
