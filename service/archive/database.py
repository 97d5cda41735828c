"""The archive's PostgreSQL: a pool on DATABASE_URL, opened with its schema brought up to date.

The schema is the SQL files in migrations/, `NNNN_name.sql`, applied in order, each in a
transaction of its own and recorded in `schema_migrations` with its SHA-256. Every step holds
one advisory lock, so replicas that start together apply each file once; a file changed after
it was applied is refused (MigrationError), never applied again. Versions in the table that no
file names (a newer release migrated this database) are left alone.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

MIGRATIONS = Path(__file__).parent / "migrations"
FILE_NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")
# pg_advisory_xact_lock's key for migrations: any fixed bigint, the same in every release.
LOCK = 0x72756C6573_0001

_SCHEMA_MIGRATIONS = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    sha256     text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""


class MigrationError(RuntimeError):
    """The migration files, or what the database says it applied, cannot be reconciled."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: bytes

    @property
    def label(self) -> str:
        return f"{self.version:04d}_{self.name}"

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.sql).hexdigest()


def migrations(folder: Path = MIGRATIONS) -> list[Migration]:
    """The folder's migrations in order; a .sql file not named NNNN_name.sql, or two files
    with one version, is a MigrationError."""
    found: dict[int, Migration] = {}
    for path in sorted(folder.glob("*.sql")):
        match = FILE_NAME.fullmatch(path.name)
        if match is None:
            raise MigrationError(f"{path.name}: a migration is named NNNN_name.sql")
        migration = Migration(int(match[1]), match[2], path.read_bytes())
        if migration.version in found:
            raise MigrationError(f"{path.name}: version {migration.version} is taken")
        found[migration.version] = migration
    return [found[version] for version in sorted(found)]


async def migrate(
    target: AsyncConnectionPool[Any] | psycopg.AsyncConnection[Any], folder: Path = MIGRATIONS
) -> list[str]:
    """Apply the migrations this database lacks (the connection must be outside a
    transaction); returns the labels (`0001_archive`) of those applied now."""
    wanted = migrations(folder)
    if isinstance(target, AsyncConnectionPool):
        async with target.connection() as conn:
            return await _migrate(conn, wanted)
    return await _migrate(target, wanted)


async def _migrate(conn: psycopg.AsyncConnection[Any], wanted: list[Migration]) -> list[str]:
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
        await conn.execute(_SCHEMA_MIGRATIONS)
    applied = []
    for migration in wanted:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
            cursor = await conn.execute(
                "SELECT name, sha256 FROM schema_migrations WHERE version = %s",
                (migration.version,),
            )
            row = await cursor.fetchone()
            if row is not None:
                if tuple(row) != (migration.name, migration.sha256):
                    raise MigrationError(
                        f"{migration.label}: applied as {row[0]!r} with sha256 {row[1]}, the "
                        f"file has {migration.sha256}: add a new migration instead of editing one"
                    )
                continue
            await conn.execute(migration.sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name, sha256) VALUES (%s, %s, %s)",
                (migration.version, migration.name, migration.sha256),
            )
        applied.append(migration.label)
    return applied


async def open_pool(
    url: str, min_size: int = 1, max_size: int = 10, *, timeout: float = 30.0
) -> AsyncConnectionPool:
    """A pool of autocommit connections on `url`, open with `min_size` connections, the schema
    migrated. One direct connection migrates first, so a wrong URL or password fails at once
    with PostgreSQL's own message; `timeout` bounds connecting and filling the pool."""
    async with await psycopg.AsyncConnection.connect(
        url, autocommit=True, connect_timeout=max(2, round(timeout))
    ) as conn:
        await migrate(conn)
    pool: AsyncConnectionPool = AsyncConnectionPool(
        url,
        min_size=min_size,
        max_size=max_size,
        kwargs={"autocommit": True},
        timeout=timeout,
        name="archive",
        open=False,
    )
    try:
        await pool.open(wait=True, timeout=timeout)
    except BaseException:
        await pool.close()
        raise
    return pool
