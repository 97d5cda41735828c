"""Real service processes (uvicorn, as the container starts them) for multi-replica tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import httpx

from service.api.edge.parking import PROTOCOL
from service.store.embedded import free_port

# a hint child starved on a busy machine gets a minute past its budget (a 503 is not tested here)
QUIET = {"LOG_LEVEL": "warning", "RULES_HINT_GRACE_MS": "60000"}


@contextmanager
def service_processes(
    redis_url: str,
    count: int,
    env: dict[str, str] | None = None,
    log: IO[bytes] | None = None,
    release: str | None = None,
) -> Iterator[list[str]]:
    """`count` replicas on free loopback ports sharing one Redis; yields their base URLs.
    `env` adds settings; `log` receives their standard error (the log); `release` is the
    directory of another copy of `service/` to run instead of this tree's."""
    processes: list[subprocess.Popen[bytes]] = []
    urls: list[str] = []

    # a release from before the parking protocol (edge/parking.py) runs uvicorn's own
    parks = release is None or (Path(release) / "service/api/edge/parking.py").exists()
    ws = PROTOCOL if parks else "wsproto"

    def start() -> tuple[subprocess.Popen[bytes], str]:
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "service.app:from_env", "--ws", ws,
             "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
             "--no-proxy-headers"],
            env={**os.environ, **QUIET, "REDIS_URL": redis_url, **(env or {}), **release_path(release)},
            stderr=log,
            cwd=release,
        )  # fmt: skip
        return process, f"http://127.0.0.1:{port}"

    try:
        for _ in range(count):
            process, url = start()
            processes.append(process)
            urls.append(url)
        deadline = time.monotonic() + 120  # generous: a busy machine starts Python slowly
        for index in range(count):
            restarts = 0
            while not _ready(urls[index]):
                if processes[index].poll() is not None:
                    # the free port it was given was taken meanwhile (another test's server):
                    # it starts again on another
                    assert restarts < 3, "a service process exited"
                    restarts += 1
                    processes[index], urls[index] = start()
                assert time.monotonic() < deadline, "a service process did not start"
                time.sleep(0.05)
        yield urls
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(10)


def release_path(release: str | None) -> dict[str, str]:
    """The environment that makes Python import `service` from `release` (a directory holding
    a copy of it) before this tree's installed one."""
    return {} if release is None else {"PYTHONPATH": release}


def _ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/readyz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False
