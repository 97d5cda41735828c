"""The archive of finished games in PostgreSQL (docs/architecture.md "The archive"): one row a
game, keyed by its id, holding the game's Redis hash (so a read of an archived game is a read
of the same record), without what its compact record (service/core/records/compact.py) gives
back byte for byte (service/core/records/stored.py), and that compact record, checked by
replay when it was written.

`put` is an upsert that never goes back a version, so two workers archiving the same game, or
one archiving it again after a crash, leave one row. `load` and `listed` serve the store's
reads of games that left Redis (service/store/cold.py's Cold): a PostgreSQL that does not
answer is StoreUnavailable there, as a Redis that does not answer is.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from service.core.records.stored import restored
from service.store import Record, StoreUnavailable, indexes


class ArchivedGame(msgspec.Struct, frozen=True, kw_only=True):
    """A row: what listings filter on, the hash's fields and the compact record."""

    game_id: str
    tenant: str
    kind: str
    status: str
    version: int
    created: float
    ended: float
    player_ids: list[str]
    member: str  # its index member (service/store/indexes.py): the listings' order
    fields: dict[str, bytes]  # the game's Redis hash as kept (records/stored.py)
    compact: bytes  # b"": none (a game of an earlier release that this one cannot replay)

    @classmethod
    def of(
        cls, game_id: str, record: Record, fields: dict[str, bytes], compact: bytes
    ) -> ArchivedGame:
        """The row of a finished game: `record` decoded from `fields`, its Redis hash."""
        return cls(
            game_id=game_id,
            tenant=record.tenant,
            kind=record.kind,
            status=record.status(),
            version=record.version,
            created=record.created,
            ended=record.updated,
            player_ids=[p for p in record.player_ids if p is not None],
            member=indexes.member(game_id, record),
            fields=fields,
            compact=compact,
        )


_PUT = """
INSERT INTO archived_games
    (game_id, tenant, kind, status, version, created, ended, player_ids, member, record, compact)
VALUES (%(game_id)s, %(tenant)s, %(kind)s, %(status)s, %(version)s, %(created)s, %(ended)s,
        %(player_ids)s, %(member)s, %(record)s, %(compact)s)
ON CONFLICT (game_id) DO UPDATE SET
    status = EXCLUDED.status, version = EXCLUDED.version, ended = EXCLUDED.ended,
    record = EXCLUDED.record, compact = EXCLUDED.compact, archived_at = now()
WHERE archived_games.version <= EXCLUDED.version
RETURNING version
"""


def lazy_pool(url: str, timeout: float) -> AsyncConnectionPool:
    """A pool that connects when first used (an API replica starts whether or not PostgreSQL
    answers: only reads of archived games need it) and waits at most `timeout` seconds for a
    connection. The workers open theirs with database.open_pool, which migrates."""
    return AsyncConnectionPool(
        url,
        open=False,
        min_size=1,
        max_size=8,
        timeout=timeout,
        kwargs={"autocommit": True},
        # a connection is checked before use: after a restart of the server the first read
        # of an archived game gets a live connection, not UNAVAILABLE (archived reads are few)
        check=AsyncConnectionPool.check_connection,
    )


class Archive:
    """The archive on a connection pool (service/archive/database.py opens and migrates it)."""

    def __init__(self, pool: AsyncConnectionPool) -> None:
        self.pool = pool

    async def put(self, game: ArchivedGame) -> int:
        """The game archived (or kept, if the archive holds a later version of it): the
        version the archive holds now."""
        row = {
            **{f: getattr(game, f) for f in ArchivedGame.__struct_fields__},
            "record": msgspec.msgpack.encode(game.fields),
        }
        async with self._connection() as conn:
            reply = await (await conn.execute(_PUT, row)).fetchone()
            if reply is None:  # a later version is there already
                reply = await (
                    await conn.execute(
                        "SELECT version FROM archived_games WHERE game_id = %s", (game.game_id,)
                    )
                ).fetchone()
        assert reply is not None
        return int(reply[0])

    async def load(self, game_id: str) -> dict[str, bytes] | None:
        """The game's hash, its history given back by its compact record if it was left out
        (records/stored.py: a replay, on a thread)."""
        query = "SELECT record, compact FROM archived_games WHERE game_id = %s"
        async with self._connection() as conn:
            reply = await (await conn.execute(query, (game_id,))).fetchone()
        if reply is None:
            return None
        return await asyncio.to_thread(restored, game_id, _fields(reply[0]), reply[1])

    async def listed(
        self,
        tenant: str,
        below: str | None,
        floor: str | None,
        count: int,
        kind: str | None = None,
        status: str | None = None,
        player_id: str | None = None,
    ) -> list[tuple[str, dict[str, bytes]]]:
        where, args = ["tenant = %s"], [tenant]
        for clause, value in (
            ("member < %s", below),
            ("member >= %s", floor),
            ("kind = %s", kind),
            ("status = %s", status),
            ("player_ids @> ARRAY[%s]", player_id),
        ):
            if value is not None:
                where.append(clause)
                args.append(value)
        query = (
            f"SELECT member, record FROM archived_games WHERE {' AND '.join(where)} "
            "ORDER BY member DESC LIMIT %s"
        )
        async with self._connection() as conn:
            rows = await (await conn.execute(query, [*args, count])).fetchall()
        return [(member, _fields(record)) for member, record in rows]

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A pooled connection; the archive not answering is StoreUnavailable."""
        try:
            async with self.pool.connection() as conn:
                yield conn
        except (psycopg.Error, PoolTimeout) as exc:  # retried later, the game kept in Redis
            raise StoreUnavailable(f"the archive failed: {type(exc).__name__}: {exc}") from None


def _fields(record: bytes) -> dict[str, bytes]:
    fields: dict[str, bytes] = msgspec.msgpack.decode(record, type=dict[str, bytes])
    return fields
