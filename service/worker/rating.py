"""Ratings, in the archive's pass: each finished game is rated (or recorded as not rated, and
why) before its row is archived, so every archived game was rated once, and a PostgreSQL that
does not answer leaves both for a later poll (service/ratings, docs/architecture.md
"Ratings"). A game whose standing cannot be worked out is set aside in `rated_games` with
its error, logged once and counted; the archive goes on."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from service import metrics
from service.ratings.ledger import EXCLUDED, RATED, SET_ASIDE, Ledger
from service.ratings.standings import standing
from service.store import HistoryRecord, Record

log = logging.getLogger("service.worker")


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
