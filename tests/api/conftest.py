"""Fixtures of the API tests: one bot worker process playing the bot seats of the shared
Redis, as `make run` starts one beside the API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.api.workers import WorkerProcess, worker_process


@pytest.fixture(scope="session")
def bot_worker(redis_url: str) -> Iterator[WorkerProcess]:
    with worker_process(redis_url) as worker:
        yield worker
