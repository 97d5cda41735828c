"""Real bot worker processes (`python -m service.worker`) for the tests, and the store they
share: waiting on jobs, reading what a worker logged."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import IO

import httpx

from service.store.embedded import free_port
from tests.support.processes import release_path
from tests.support.waiting import until


class WorkerProcess:
    def __init__(self, redis_url: str, release: str | None = None, **settings: str) -> None:
        """A worker of this tree, or of the copy of `service/` in the directory `release`."""
        self.redis_url = redis_url
        self.logged = ""
        self.log: IO[str] = tempfile.TemporaryFile("w+")  # noqa: SIM115  # closed in stop()
        environment = {
            **os.environ,
            "REDIS_URL": redis_url,
            "RULES_WORKER_PROCESSES": "1",
            "RULES_WORKER_POLL_SECONDS": "0.2",
            "LOG_LEVEL": "info",
            **settings,
            **release_path(release),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.worker"],
            env=environment,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            cwd=release,
        )

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    async def until_logged(self, text: str, seconds: float = 60) -> None:
        """Wait until the worker has logged `text`: an AssertionError quoting its log after
        `seconds`."""
        try:
            await until(lambda: text in self.output(), repr(text), seconds)
        except AssertionError as failed:
            raise AssertionError(f"{failed}; it logged:\n{self.output()}") from None

    def stop(self) -> str:
        """Stop it (if it still runs) and return everything it logged."""
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(30)
        if not self.log.closed:
            self.logged = self.output()
            self.log.close()
        return self.logged


@contextmanager
def worker_process(
    redis_url: str, release: str | None = None, **settings: str
) -> Iterator[WorkerProcess]:
    worker = WorkerProcess(redis_url, release, **settings)
    try:
        yield worker
    finally:
        if worker.process.poll() is None:
            worker.process.kill()
        worker.stop()


class _PortTaken(Exception):
    pass


async def _serves_metrics(worker: WorkerProcess, port: int) -> bool:
    if worker.process.poll() is not None:
        output = worker.output()
        if "Address already in use" in output:
            raise _PortTaken
        raise AssertionError(f"the worker exited; it logged:\n{output}")
    try:
        async with httpx.AsyncClient() as http:
            return (await http.get(f"http://127.0.0.1:{port}/metrics")).status_code == 200
    except httpx.HTTPError:
        return False


@asynccontextmanager
async def serving_worker(
    redis_url: str, **settings: str
) -> AsyncIterator[tuple[WorkerProcess, int]]:
    """A worker process serving its metrics, and their port. The port is probed free here and
    bound later by the worker: another test's server may take it in between, and then the
    worker exits at once and starts again on another port."""
    for _ in range(5):
        port = free_port()
        with worker_process(redis_url, RULES_WORKER_METRICS_PORT=str(port), **settings) as worker:
            try:
                await until(
                    lambda w=worker, p=port: _serves_metrics(w, p), "the worker serves its metrics"
                )
            except _PortTaken:
                continue
            yield worker, port
            return
    raise AssertionError("no free metrics port in five tries")
