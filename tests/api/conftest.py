"""Fixtures of the API tests: one bot worker process playing the bot seats of the shared
Redis, as `make run` starts one beside the API; two tenants managing webhook endpoints, in
development (loopback receivers refused) and with private receivers allowed."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.api.webhook_tenants import Tenants, tenants
from tests.api.workers import WorkerProcess, worker_process


@pytest.fixture(scope="session")
def bot_worker(redis_url: str) -> Iterator[WorkerProcess]:
    with worker_process(redis_url) as worker:
        yield worker


@pytest.fixture(scope="module")
async def dev(redis_url: str) -> AsyncIterator[Tenants]:
    async with tenants(redis_url) as found:
        yield found


@pytest.fixture(scope="module")
async def private(redis_url: str) -> AsyncIterator[Tenants]:
    async with tenants(redis_url, webhook_allow_private=True) as found:
        yield found
