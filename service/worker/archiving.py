"""The archive loop (with DATABASE_URL): finished games past their grace copied to PostgreSQL,
then dropped from Redis (service/store/archived.py, service/archive/archive.py).

Each poll it claims the due games of every lane for RULES_ARCHIVE_LEASE_SECONDS and archives
them one by one: the hash read, the record replayed into its compact form (on a thread: a
long game replays for tens of milliseconds), the row upserted, and only then the game dropped
from Redis, if it is still at the version archived. A worker killed anywhere in between leaves
the claim to lapse and another worker does it again: the upsert and the drop are idempotent.
A PostgreSQL or Redis that does not answer leaves the game claimed and in Redis (served from
there) until a later poll; a game that fails for another reason is set aside, once.
"""

from __future__ import annotations

import asyncio
import logging
import time

import psycopg
from psycopg_pool import PoolTimeout
from redis.exceptions import RedisError

from service import metrics
from service.archive.archive import Archive, ArchivedGame
from service.archive.database import open_pool
from service.core.game.folding import fold_finished
from service.core.records.compact import CompactError, pack
from service.core.records.documents import export
from service.core.records.format import Unverifiable
from service.core.records.stored import HISTORY, kept
from service.engine import BadSetup
from service.games import game_for, games
from service.ratings.ledger import Ledger
from service.store import HistoryRecord, Record, RedisStore, StoreUnavailable
from service.store.jobs import LANES
from service.store.reading import decode_record
from service.worker.rating import Rater
from service.worker.shared import Shared

log = logging.getLogger("service.worker")
BATCH = 16  # games claimed per lane and poll


class Archiver:
    def __init__(self, store: RedisStore, shared: Shared) -> None:
        self.store = store
        self.shared = shared
        self.archive: Archive | None = None

    async def run(self) -> None:
        """Open the archive (migrated: database.open_pool), waiting for PostgreSQL as long as
        it takes without holding up the other loops; then archive each poll until stop()."""
        settings = self.shared.settings
        while self.archive is None and not self.shared.stopping.is_set():
            try:
                # one game at a time, and one for the rating pass
                pool = await open_pool(settings.database_url, max_size=2)
            except (psycopg.Error, PoolTimeout, OSError) as exc:
                log.warning("the archive is not there yet (%s); retrying", type(exc).__name__)
                await self.shared.pause(settings.worker_poll_seconds)
            else:
                self.archive = Archive(pool)
        try:
            while not self.shared.stopping.is_set():
                await self.shared.redis_call(self.once)
                self.shared.heartbeat.beat("archive")
                await self.shared.pause(settings.worker_poll_seconds)
        finally:
            if self.archive is not None:
                await self.archive.pool.close()

    def ledger(self) -> Ledger | None:
        """The ratings on the archive's pool, once it is open (the rating pass shares it)."""
        return None if self.archive is None else Ledger(self.archive.pool)

    async def once(self) -> None:
        """Every lane's due games, claimed and archived; then the lag: how long the oldest
        game waiting for the archive has been due."""
        now = time.time()
        until = now + self.shared.settings.archive_lease_seconds
        for lane in range(LANES):
            for game_id in await self.store.archived.claim(lane, now, until, BATCH):
                if self.shared.stopping.is_set():
                    return
                await self.one(game_id)
        oldest = await self.store.archived.oldest(range(LANES))
        metrics.ARCHIVE_LAG_SECONDS.set(0 if oldest is None else max(time.time() - oldest, 0))

    async def one(self, game_id: str) -> str:
        """Archive one game; its outcome (also counted): "archived", "changed" (written since:
        archived again once due), "gone" (expired or dropped already), "active" (not over),
        "unavailable" (left claimed: retried after the lease) or "set_aside"."""
        try:
            outcome = await self._archive(game_id)
        except (RedisError, StoreUnavailable) as exc:
            log.warning("game %s left for a later archive: %s", game_id, exc)
            outcome = "unavailable"
        except Exception as exc:  # this game only: set aside, the loop goes on
            await self.shared.containment.set_aside("archive", game_id, exc)
            await self.store.archived.unmark(game_id)
            outcome = "set_aside"
        metrics.ARCHIVED.labels(outcome).inc()
        return outcome

    async def _archive(self, game_id: str) -> str:
        fields = await self.store.archived.fields(game_id)
        if "r" not in fields:
            await self.store.archived.unmark(game_id)
            return "gone"
        record = decode_record(game_id, fields["r"])
        if not record.finished:  # a token reissued in a live game marks it: nothing to do
            await self.store.archived.unmark(game_id)
            return "active"
        if HISTORY not in fields:  # its fold failed when it ended: fold it now, or later
            await fold_finished(self.store, game_id, record)
            fields = await self.store.archived.fields(game_id)
            if HISTORY not in fields:
                raise StoreUnavailable(f"the history of {game_id} is not folded yet")
        assert self.archive is not None
        entries = await self.store.history(game_id, 0, record.version)
        await Rater(Ledger(self.archive.pool)).rate(game_id, record, entries)  # before the row
        compact, fields = await asyncio.to_thread(_compact, game_id, record, entries, fields)
        row = ArchivedGame.of(game_id, record, fields, compact)
        if await self.archive.put(row) != record.version:
            return "changed"  # the archive holds a later version: Redis's is stale
        dropped = await self.store.archived.drop(game_id, record, fields.get("t"))
        return "archived" if dropped else "changed"


def _compact(
    game_id: str, record: Record, entries: list[HistoryRecord], fields: dict[str, bytes]
) -> tuple[bytes, dict[str, bytes]]:
    """The game's compact record, checked by replay, and its hash as the archive keeps it
    (records/stored.py); b"" and the whole hash for a game this release cannot replay (an
    earlier release's without options, or other rules)."""
    game = game_for(record.kind, record.rules) if record.kind in games() else None
    if game is None or record.options is None or record.rules != game.rules_version:
        return b"", fields
    try:
        compact = pack(export(game_id, record, entries))
    except (Unverifiable, CompactError, BadSetup) as exc:
        log.warning("game %s archived without its compact record: %s", game_id, exc)
        return b"", fields
    return compact, kept(game_id, fields, compact)
