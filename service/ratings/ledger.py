"""Ratings in PostgreSQL (migrations/0002_ratings.sql): a finished game's standing applied
once, the leaderboards and a player's ratings, each tenant's takeback policy.

A game is rated exactly once: its row in `rated_games` (primary key tenant, game id) is
inserted in the same transaction as the ratings it changes, so a replay, a retry or a second
worker racing the first finds the row and changes nothing. The players' rows are locked in
player id order, so two games sharing players are rated one after the other, never with a
deadlock. A PostgreSQL that does not answer is StoreUnavailable: the caller tries again later.
"""

from __future__ import annotations

import base64
import binascii
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import msgspec
import psycopg
from openskill.models import PlackettLuce
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from service.archive.archive import Archive
from service.ratings.standings import Standing
from service.refusals import Code, Refused
from service.store import RedisStore, StoreUnavailable

# openskill's Weng-Lin Bayesian rating with the Plackett-Luce model: any number of teams
# of any size, ties, and a (mu, sigma) per player; its defaults (mu 25, sigma 25/3)
MODEL = PlackettLuce()
RATED, EXCLUDED, SET_ASIDE = "RATED", "EXCLUDED", "SET_ASIDE"  # rated_games.outcome
DEFAULT_MAX_TAKEBACKS = 0  # a tenant that set no policy: any takeback leaves a game unrated
MAX_TAKEBACKS = 1000  # the most a policy may allow
MAX_PAGE = 100
REASON_LENGTH = 300


class Rating(msgspec.Struct, frozen=True):
    player_id: str
    kind: str
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: a rating the player very likely has at least
    games: int
    updated_at: datetime


class Board(msgspec.Struct, frozen=True):
    """A page of a leaderboard, best first: (cursor, rating) pairs."""

    ratings: list[tuple[str, Rating]]
    end_cursor: str | None
    has_next: bool


_RATING_COLUMNS = "player_id, kind, mu, sigma, ordinal, games, updated_at"


class Ledger:
    """Ratings on the archive's connection pool."""

    def __init__(self, pool: AsyncConnectionPool) -> None:
        self.pool = pool

    @classmethod
    def of(cls, store: RedisStore) -> Ledger | None:
        """The ratings of the store's archive; None without one (no DATABASE_URL)."""
        return cls(store.cold.pool) if isinstance(store.cold, Archive) else None

    async def record(self, standing: Standing) -> tuple[str, str] | None:
        """Rate the game, or record why not, once: (outcome, reason), or None if the game was
        rated (or left out) before."""
        async with self._connection() as conn, conn.transaction():
            policy = await _max_takebacks(conn, standing.tenant)
            excluded = standing.excluded_by(policy)
            verdict = (EXCLUDED, excluded) if excluded is not None else (RATED, "")
            if not await _first(conn, standing.tenant, standing.game_id, standing.kind, verdict):
                return None
            if excluded is None:
                await _rate(conn, standing)
        return verdict

    async def set_aside(self, tenant: str, game_id: str, kind: str, reason: str) -> bool:
        """A game whose standing could not be worked out: recorded, never rated; False if it
        was rated (or set aside) before."""
        verdict = (SET_ASIDE, reason[:REASON_LENGTH])
        async with self._connection() as conn:
            return await _first(conn, tenant, game_id, kind, verdict)

    async def verdict(self, tenant: str, game_id: str) -> tuple[str, str] | None:
        query = "SELECT outcome, reason FROM rated_games WHERE tenant = %s AND game_id = %s"
        async with self._connection() as conn:
            row = await (await conn.execute(query, (tenant, game_id))).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    async def leaderboard(self, tenant: str, kind: str, first: int, after: str | None) -> Board:
        """The tenant's players of `kind`, best first (ordinal, then player id)."""
        below = checked_page(first, after)
        where, args = "tenant = %s AND kind = %s", list[object]([tenant, kind])
        if below is not None:
            where += " AND (ordinal < %s OR (ordinal = %s AND player_id > %s))"
            args += [below[0], below[0], below[1]]
        query = (
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE {where} "
            "ORDER BY ordinal DESC, player_id LIMIT %s"
        )
        async with self._connection() as conn:
            rows = await (await conn.execute(query, [*args, first + 1])).fetchall()
        found = [(encode_cursor(r.ordinal, r.player_id), r) for r in map(_rating, rows[:first])]
        return Board(found, found[-1][0] if found else after, len(rows) > first)

    async def ratings(self, tenant: str, player_id: str, kind: str | None = None) -> list[Rating]:
        """The player's ratings of the tenant, by kind (one kind, or every kind rated)."""
        query = f"SELECT {_RATING_COLUMNS} FROM ratings WHERE tenant = %s AND player_id = %s"
        args = [tenant, player_id]
        if kind is not None:
            query += " AND kind = %s"
            args.append(kind)
        async with self._connection() as conn:
            rows = await (await conn.execute(query + " ORDER BY kind", args)).fetchall()
        return [_rating(row) for row in rows]

    async def max_takebacks(self, tenant: str) -> int:
        async with self._connection() as conn:
            return await _max_takebacks(conn, tenant)

    async def set_max_takebacks(self, tenant: str, count: int) -> int:
        """The tenant's policy: games with more takebacks than `count` are not rated (from
        the next game rated on)."""
        checked_takebacks(count)
        query = (
            "INSERT INTO rating_policies (tenant, max_takebacks) VALUES (%s, %s) "
            "ON CONFLICT (tenant) DO UPDATE SET max_takebacks = EXCLUDED.max_takebacks, "
            "updated_at = now()"
        )
        async with self._connection() as conn:
            await conn.execute(query, (tenant, count))
        return count

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A pooled connection; PostgreSQL not answering is StoreUnavailable."""
        try:
            async with self.pool.connection() as conn:
                yield conn
        except (psycopg.Error, PoolTimeout) as exc:
            raise StoreUnavailable(f"the ratings failed: {type(exc).__name__}: {exc}") from None


async def _max_takebacks(conn: psycopg.AsyncConnection[Any], tenant: str) -> int:
    query = "SELECT max_takebacks FROM rating_policies WHERE tenant = %s"
    row = await (await conn.execute(query, (tenant,))).fetchone()
    return DEFAULT_MAX_TAKEBACKS if row is None else int(row[0])


async def _first(
    conn: psycopg.AsyncConnection[Any],
    tenant: str,
    game_id: str,
    kind: str,
    verdict: tuple[str, str],
) -> bool:
    """The game's verdict recorded; False if it had one (a replay or another worker)."""
    query = (
        "INSERT INTO rated_games (tenant, game_id, kind, outcome, reason) "
        "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING 1"
    )
    cursor = await conn.execute(query, (tenant, game_id, kind, *verdict))
    return await cursor.fetchone() is not None


async def _rate(conn: psycopg.AsyncConnection[Any], standing: Standing) -> None:
    """The players' ratings moved by the game's result (their rows locked, in order)."""
    tenant, kind = standing.tenant, standing.kind
    players = sorted(p for team in standing.teams for p in team)
    start = MODEL.rating()
    async with conn.cursor() as cursor:
        await cursor.executemany(
            "INSERT INTO ratings (tenant, kind, player_id, mu, sigma, ordinal, games) "
            "VALUES (%s, %s, %s, %s, %s, %s, 0) ON CONFLICT DO NOTHING",
            [(tenant, kind, p, start.mu, start.sigma, start.ordinal()) for p in players],
        )
    rows = await (
        await conn.execute(
            "SELECT player_id, mu, sigma FROM ratings WHERE tenant = %s AND kind = %s "
            "AND player_id = ANY(%s) ORDER BY player_id FOR UPDATE",
            (tenant, kind, players),
        )
    ).fetchall()
    now = {str(p): MODEL.rating(mu=mu, sigma=sigma, name=str(p)) for p, mu, sigma in rows}
    teams = [[now[p] for p in team] for team in standing.teams]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in standing.ranks])
    async with conn.cursor() as cursor:
        await cursor.executemany(
            "UPDATE ratings SET mu = %s, sigma = %s, ordinal = %s, games = games + 1, "
            "updated_at = now() WHERE tenant = %s AND kind = %s AND player_id = %s",
            [(r.mu, r.sigma, r.ordinal(), tenant, kind, r.name) for team in after for r in team],
        )


def _rating(row: Any) -> Rating:
    player_id, kind, mu, sigma, ordinal, games, updated_at = row
    return Rating(str(player_id), str(kind), mu, sigma, ordinal, int(games), updated_at)


def checked_takebacks(count: int) -> int:
    if not 0 <= count <= MAX_TAKEBACKS:
        raise Refused(Code.OUT_OF_RANGE, f"maxTakebacks is 0 to {MAX_TAKEBACKS}")
    return count


def checked_page(first: int, after: str | None) -> tuple[float, str] | None:
    """Where a leaderboard page starts (None: at the top), or OUT_OF_RANGE."""
    if not 0 < first <= MAX_PAGE:
        raise Refused(Code.OUT_OF_RANGE, f"first must be 1 to {MAX_PAGE}")
    below = None if after is None else decode_cursor(after)
    if after is not None and below is None:
        raise Refused(Code.OUT_OF_RANGE, "after must be a cursor this leaderboard returned")
    return below


def encode_cursor(ordinal: float, player_id: str) -> str:
    """Where a leaderboard page ends: the last rating's ordinal (exact) and player id."""
    raw = struct.pack(">d", ordinal) + player_id.encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[float, str] | None:
    """The ordinal and player id a cursor names, or None when it is not one of ours."""
    try:
        raw = base64.b64decode(cursor + "=" * (-len(cursor) % 4), altchars=b"-_", validate=True)
        player_id = raw[8:].decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    if len(raw) < 9:
        return None
    (ordinal,) = struct.unpack(">d", raw[:8])
    return (ordinal, player_id) if ordinal == ordinal else None  # not NaN
