"""Ratings: each finished game rated (or recorded as not rated, and why) within seconds of its
end, by every worker's rating pass, and again asked for by the archive's pass just before its
row is archived, so every archived game was rated once (service/ratings, docs/architecture.md
"Ratings"). A game whose standing cannot be worked out is set aside in `rated_games` with its
error, logged once and counted; the others go on. A PostgreSQL that does not answer leaves
the game for a later pass."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

from service import metrics
from service.games import games
from service.ratings.ledger import EXCLUDED, RATED, SET_ASIDE, Ledger
from service.ratings.standings import standing
from service.store import HistoryRecord, Record, RedisStore, StoreUnavailable, UnreadableRecord
from service.store.jobs import LANES
from service.store.rating_marks import RatingMarks
from service.worker.shared import Shared

log = logging.getLogger("service.worker")
BATCH = 16  # games claimed per lane and pass


class Rater:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def rate(self, game_id: str, record: Record, entries: Sequence[HistoryRecord]) -> str:
        """RATED, EXCLUDED, SET_ASIDE, or "" when the game was handled before (counted once);
        StoreUnavailable when PostgreSQL does not answer."""
        try:
            found = standing(game_id, record, entries)
        except Exception as exc:  # this game only: recorded with its error, never rated
            reason = f"{type(exc).__name__}: {exc}"
            if await self.ledger.set_aside(record.tenant, game_id, record.kind, reason):
                log.warning("game %s set aside by the ratings: %s", game_id, reason)
                metrics.RATED_GAMES.labels(SET_ASIDE.lower(), "error").inc()
                return SET_ASIDE
            return ""
        verdict = await self.ledger.record(found)
        if verdict is None:
            return ""
        outcome, reason = verdict
        assert outcome in (RATED, EXCLUDED)
        metrics.RATED_GAMES.labels(outcome.lower(), reason).inc()
        return outcome


class RatingPass:
    """Each poll, the games of every lane that ended since, claimed for
    RULES_ARCHIVE_LEASE_SECONDS and rated one by one; a mark goes once the ratings answered
    (service/store/rating_marks.py). `ledger` is the archive's, None until it is open."""

    def __init__(
        self, store: RedisStore, shared: Shared, ledger: Callable[[], Ledger | None]
    ) -> None:
        self.store = store
        self.shared = shared
        self.ledger = ledger
        self.marks = RatingMarks(store.commands)

    async def run(self) -> None:
        while not self.shared.stopping.is_set():
            full = await self.shared.redis_call(self.once)
            self.shared.heartbeat.beat("rating")
            if not full:  # a full batch: more may be waiting, go on at once
                await self.shared.pause(self.shared.settings.worker_poll_seconds)

    async def once(self) -> bool:
        """Every lane's ended games, claimed and rated; then the lag: how long the oldest
        game waiting for its rating has waited since it ended. Whether a batch was full."""
        ledger = self.ledger()
        if ledger is None:
            return False
        now = time.time()
        firsts = await self.marks.firsts(range(LANES))
        metrics.RATING_LAG_SECONDS.set(max(now - min(firsts.values(), default=now), 0))
        until, rater, full = now + self.shared.settings.archive_lease_seconds, Rater(ledger), False
        for lane in (lane for lane, first in firsts.items() if first <= now):
            claimed = await self.marks.claim(lane, now, until, BATCH)
            full |= len(claimed) == BATCH
            records = await self.store.records([game_id for game_id, _ in claimed])
            for n, ((game_id, _), record) in enumerate(zip(claimed, records, strict=True)):
                if self.shared.stopping.is_set():
                    await self.marks.give_back(lane, claimed[n:])
                    return False
                try:
                    await self.one(rater, game_id, record)
                except StoreUnavailable as exc:  # the rest of this pass would wait as long
                    log.warning("the ratings of lane %d left for a later pass: %s", lane, exc)
                    await self.marks.give_back(lane, claimed[n:])
                    return False
        return full

    async def one(
        self, rater: Rater, game_id: str, record: Record | UnreadableRecord | None
    ) -> str:
        """Rate one game read from Redis; its outcome: RATED, EXCLUDED, SET_ASIDE, "" (handled
        before), "gone" (archived or expired: the archive's pass rated it), "active", "left"
        (for a newer release: claimed until the lease ends) or "failed" (left for the
        archive's pass). StoreUnavailable when PostgreSQL or Redis does not answer."""
        if isinstance(record, UnreadableRecord):
            log.warning("game %s left to the archive's pass, unread: %s", game_id, record)
            outcome = "failed"
        elif record is None or not record.finished:
            outcome = "gone" if record is None else "active"
        elif record.kind not in games() or record.rules > games()[record.kind].rules_version:
            return "left"  # scored by a release that has its rules
        else:
            try:
                entries = await self.store.history(game_id, 0, record.version)
                outcome = await rater.rate(game_id, record, entries)
            except StoreUnavailable:
                raise
            except Exception:  # this game only: the archive's pass asks again, and contains it
                log.exception("game %s left to the archive's pass, not rated", game_id)
                outcome = "failed"
        await self.marks.unmark(game_id)
        return outcome
