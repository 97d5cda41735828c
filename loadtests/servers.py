"""Real processes to measure: a private redis-server, the service and the floor under uvicorn
(as the container starts them) or granian (docs/performance.md compares them), and the CPU time each
one spends."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass

import httpx

from service.api.edge.parking import PROTOCOL
from service.store.embedded import EmbeddedRedis, ask, free_port

SERVICE_APP = "service.app:from_env"
FLOOR_APP = "loadtests.floor:from_env"
TICKS = os.sysconf("SC_CLK_TCK")
# Limits stay on (their cost is part of every request) but high enough never to refuse one.
UNLIMITED = {
    "RULES_RATE_LIMIT_PER_TOKEN": "1000000000",
    "RULES_RATE_LIMIT_PER_ADDRESS": "1000000000",
    "RULES_SHUTDOWN_DELAY_SECONDS": "0",  # a measured server stops at once
}


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


@dataclass
class Server:
    name: str
    url: str
    port: int
    pid: int


def _ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/readyz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


ASGI_SERVERS = ("uvicorn", "granian")


def _command(server: str, app: str, port: int) -> list[str]:
    """One process serving `app` on loopback: uvicorn as the image runs it, or granian with
    one worker on uvloop (its closest equivalent)."""
    if server == "granian":
        return [
            sys.executable, "-m", "granian", "--interface", "asgi", "--factory", app,
            "--loop", "uvloop", "--workers", "1", "--no-access-log",
            "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
        ]  # fmt: skip
    return [
        sys.executable, "-m", "uvicorn", "--factory", app,
        "--loop", "uvloop", "--http", "httptools", "--ws", PROTOCOL, "--no-access-log",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
    ]  # fmt: skip


def serving_pid(pid: int) -> int:
    """The process that runs the app: granian's only worker, or the process itself."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            found = [int(child) for child in children.read().split()]
    except OSError:
        return pid
    return found[0] if len(found) == 1 else pid


@contextmanager
def asgi(
    name: str,
    app: str,
    redis_url: str,
    server: str = "uvicorn",
    settings: dict[str, str] | None = None,
) -> Iterator[Server]:
    port = free_port()
    command = _command(server, app, port)
    env = {**os.environ, **UNLIMITED, "REDIS_URL": redis_url, "LOG_LEVEL": "warning"}
    env.update(settings or {})
    process = subprocess.Popen(command, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180  # a busy machine imports slowly
        while not _ready(url):
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited with {process.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not start in time")
            time.sleep(0.05)
        yield Server(name, url, port, serving_pid(process.pid))
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Stack:
    redis: EmbeddedRedis
    service: Server
    floor: Server | None
    replica: EmbeddedRedis | None = None

    @property
    def redis_pid(self) -> int:
        assert self.redis.process is not None
        return self.redis.process.pid


def replica_of(master: EmbeddedRedis, timeout: float = 60.0) -> EmbeddedRedis:
    """A redis-server replicating `master` (`--replicaof`), once the master counts it."""
    replica = EmbeddedRedis(extra=("--replicaof", "127.0.0.1", str(master.port))).start()
    deadline = time.monotonic() + timeout
    while b"connected_slaves:1" not in ask(master.port, "INFO", "replication"):
        if time.monotonic() > deadline:
            replica.cleanup()
            raise RuntimeError("the replica did not connect in time")
        time.sleep(0.05)
    return replica


@contextmanager
def stack(
    with_floor: bool = True,
    server: str = "uvicorn",
    replica: bool = False,
    settings: dict[str, str] | None = None,
) -> Iterator[Stack]:
    """A private Redis (never the machine's own) with, if asked, a replica of it, the service
    (with `settings` added to its environment) and, if asked, the floor, both under `server`
    (one of ASGI_SERVERS)."""
    with ExitStack() as stop:
        redis = EmbeddedRedis().start()
        stop.callback(redis.cleanup)
        standby = replica_of(redis) if replica else None
        if standby is not None:
            stop.callback(standby.cleanup)
        service = stop.enter_context(asgi("service", SERVICE_APP, redis.url, server, settings))
        floor = (
            stop.enter_context(asgi("floor", FLOOR_APP, redis.url, server)) if with_floor else None
        )
        yield Stack(redis, service, floor, standby)
