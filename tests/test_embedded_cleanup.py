"""`python -m service` leaves no Redis, no directory and no worker behind, however it ends:
SIGTERM and SIGINT (it stops them itself), SIGKILL (it cannot: the watchdog stops the Redis, and
the worker stops when its parent is gone: a pidfd, then a drain with a bound)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
import redis

from service.store.embedded import free_port
from service.store.watchdog import running
from tests.support import gql

BOUND = 120.0  # seconds; generous, the machine may be busy


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what} after {BOUND} s"
        time.sleep(0.05)


def ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/readyz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def children(pid: int, text: str) -> list[int]:
    """Running child processes of `pid` whose command line contains `text` (Linux: /proc)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            argv = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            parent = int((entry / "stat").read_bytes().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == pid and text in argv and running(int(entry.name)):
            found.append(int(entry.name))
    return found


def commands_naming(text: str) -> list[str]:
    """Command lines of running processes that contain `text` (Linux: /proc; else none)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            argv = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in argv and running(int(entry.name)):
            found.append(argv)
    return found


@pytest.mark.parametrize(
    ("sig", "exit_code"),
    [(signal.SIGTERM, -signal.SIGTERM), (signal.SIGINT, 0), (signal.SIGKILL, -signal.SIGKILL)],
    ids=["SIGTERM", "SIGINT", "SIGKILL"],
)
def test_the_embedded_redis_and_its_directory_are_gone_after(
    sig: signal.Signals, exit_code: int, tmp_path: Path
) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    log = tmp_path / "service.log"
    with log.open("wb") as out:
        service = subprocess.Popen(
            [sys.executable, "-m", "service"],
            env={**env, "PORT": str(port), "LOG_LEVEL": "warning"},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for(lambda: ready(f"http://127.0.0.1:{port}") or service.poll() is not None, "ready")
        assert service.poll() is None, log.read_text()
        redis_url = log.read_text().split("Started an embedded Redis at ")[1].split()[0]
        with redis.Redis.from_url(redis_url) as client:
            redis_pid = int(client.info("server")["process_id"])
            workdir = client.config_get("dir")["dir"]
        assert running(redis_pid) and os.path.isdir(workdir)
        wait_for(lambda: bool(children(service.pid, "service.worker")), "its bot worker")
        (worker_pid,) = children(service.pid, "service.worker")

        service.send_signal(sig)
        assert service.wait(BOUND) == exit_code, log.read_text()
    finally:
        if service.poll() is None:
            service.kill()
            service.wait()

    wait_for(lambda: not running(redis_pid), "the redis-server to stop")
    wait_for(lambda: not os.path.exists(workdir), "its directory to be removed")
    wait_for(lambda: not commands_naming(workdir), "its watchdog to exit")
    wait_for(lambda: not running(worker_pid), "its worker to stop (it watches its parent)")
    assert "Traceback" not in log.read_text(), log.read_text()


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


def hint(url: str) -> None:
    """A suggestMove, which starts the API's hint process (service/bots/hints.py)."""
    created = httpx.post(f"{url}/v1/games", json={"kind": "TREELINGS", "players": 2}).json()
    seat = created["game"]["toAct"][0]
    (token,) = [s["token"] for s in created["seats"] if s["seat"] == seat]
    variables = {"id": created["game"]["id"], "strategy": "SEARCH", "budgetMs": 100}
    answer = httpx.post(
        f"{url}/graphql",
        json={"query": gql.SUGGEST, "variables": variables},
        headers={"authorization": f"Bearer {token}"},
        timeout=BOUND,
    ).json()
    assert answer["data"]["suggestMove"]["seat"] == seat, answer


def test_a_sigkilled_service_leaves_no_process_behind_even_mid_decision(tmp_path: Path) -> None:
    """Two worker processes (under their own parent, with multiprocessing's resource tracker),
    one of them in a decision that never ends, the API's hint process, the embedded Redis and
    its watchdog: all gone after a SIGKILL of `python -m service`. Each worker watches its
    parent (a pidfd) and drains, the drain's bound ending the endless decision; the hint
    process and the watchdog read pipes that close with the API."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    settings = {"RULES_RUN_WORKERS": "2", "RULES_BOT_ITERATIONS": str(10**9),
                "RULES_WORKER_DRAIN_SECONDS": "2"}  # fmt: skip
    log = tmp_path / "service.log"
    with log.open("wb") as out:
        service = subprocess.Popen(
            [sys.executable, "-m", "service"],
            env={**env, "PORT": str(port), "LOG_LEVEL": "warning", **settings},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    below: set[int] = set()
    try:
        wait_for(lambda: ready(url) or service.poll() is not None, "ready")
        assert service.poll() is None, log.read_text()
        created = httpx.post(
            f"{url}/v1/games",
            json={"kind": "TREELINGS", "players": 2, "bots": [{"seat": 0, "strategy": "SEARCH"}]},
        )
        assert created.status_code == 201, created.text
        redis_url = log.read_text().split("Started an embedded Redis at ")[1].split()[0]

        def deciding() -> bool:
            with redis.Redis.from_url(redis_url) as client:
                try:
                    return any(
                        client.xpending(key, "bots")["pending"]
                        for key in client.scan_iter("bots:*", _type="stream")
                    )
                except redis.ResponseError:  # a stream whose group is not there yet
                    return False

        wait_for(deciding, "a worker to take the bot's job")
        hint(url)
        # Redis and its watchdog, the API's hint process and its resource tracker, the workers'
        # parent, its two processes and their resource tracker
        wait_for(lambda: len(descendants(service.pid)) >= 8, "every process to start")
        below = descendants(service.pid)
        service.send_signal(signal.SIGKILL)
        assert service.wait(BOUND) == -signal.SIGKILL
    finally:
        if service.poll() is None:
            service.kill()
            service.wait()

    try:
        wait_for(lambda: not [pid for pid in below if running(pid)], "every process below to end")
    finally:  # a failure leaves nothing behind either
        for pid in below:
            if running(pid):
                os.kill(pid, signal.SIGKILL)
