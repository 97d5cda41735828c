"""Shared fixtures: a real Redis server process and the real ASGI app.

Tests use `TEST_REDIS_URL` when it is set, else a throwaway redis-server on a free loopback
port (never the machine's own Redis on 6379). Game ids are random, so tests never collide.

`make test` runs the suite on pytest-xdist workers (`-n 4 --dist loadgroup`: tests are handed
out one by one, so a module fixture may be set up once per worker; tests that share a costly
one carry `pytest.mark.xdist_group(name)` and run on one worker). Rules for new tests, so that
they parallelize and stay steady on a busy machine:
- Session fixtures are per worker: `redis_url` is one Redis per worker. Anything a test
  starts itself (a Redis, a service process, a browser) gets a free port (`free_port()`), a
  fresh temp dir, and is stopped in a `finally`; nothing may depend on another test file.
- Never a fixed port, a shared file, a global Redis key, or the machine's Redis on 6379.
- Wait for events (a readiness probe, a message, a log line), polling with a generous bound
  (30-60 s); never `sleep` and hope, never a tight deadline. Timing claims belong in loadtests/.
- A tool that may be missing (node, chromium) skips with a reason, unless
  RULES_REQUIRE_ALL_TESTS=1 (CI) makes it a failure.
- An async test that hangs fails after HANG_LIMIT with every pending task's stack (`watchdog`).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from service.app import create_app
from service.settings import Settings
from service.store.embedded import EmbeddedRedis, EmbeddedRedisCluster

HANG_LIMIT = 600.0  # seconds; far above any test's time under `make test-stress`


def _bark(test: str) -> None:
    print(f"\nwatchdog: {test} still running after {HANG_LIMIT}s; pending tasks:", file=sys.stderr)
    for task in asyncio.all_tasks():
        task.print_stack(file=sys.stderr)
    for task in asyncio.all_tasks():
        task.cancel()


@pytest.fixture
async def watchdog(request: pytest.FixtureRequest) -> AsyncIterator[None]:
    """A test that waits on something that never comes fails, showing what it waited on,
    instead of sitting idle until CI gives up."""
    handle = asyncio.get_running_loop().call_later(HANG_LIMIT, _bark, request.node.nodeid)
    yield
    handle.cancel()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Every async test gets the watchdog (not autouse: hypothesis refuses function-scoped
    # fixtures on its sync tests).
    for item in items:
        if isinstance(item, pytest.Function) and inspect.iscoroutinefunction(item.obj):
            item.fixturenames.append("watchdog")


@contextmanager
def own_redis() -> Iterator[str]:
    """A Redis server process of its own (a 3-master cluster in the cluster pass)."""
    server = EmbeddedRedisCluster() if os.environ.get("TEST_REDIS_CLUSTER") else EmbeddedRedis()
    server.start()
    try:
        yield server.url
    finally:
        server.cleanup()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    url = os.environ.get("TEST_REDIS_URL")
    if url:
        yield url
        return
    with own_redis() as url:
        yield url


class Api:
    """A GraphQL client over the real ASGI app."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def post(
        self, query: str, variables: dict[str, Any] | None = None, token: str | None = None
    ) -> httpx.Response:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return await self.http.post(
            "/graphql", json={"query": query, "variables": variables or {}}, headers=headers
        )

    async def gql(
        self, query: str, variables: dict[str, Any] | None = None, token: str | None = None
    ) -> dict[str, Any]:
        response = await self.post(query, variables, token)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        assert "errors" not in body, body["errors"]
        data: dict[str, Any] = body["data"]
        return data


@contextlib.asynccontextmanager
async def client_for(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client on the ASGI app, with the app's lifespan run around it (as uvicorn does),
    so its Redis connections and background tasks are closed afterwards."""
    messages: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    sent: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    await messages.put({"type": "lifespan.startup"})
    lifespan = asyncio.create_task(
        app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, messages.get, sent.put)
    )
    assert (await sent.get())["type"] == "lifespan.startup.complete"
    try:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://test"
        ) as http:
            yield http
    finally:
        await messages.put({"type": "lifespan.shutdown"})
        assert (await sent.get())["type"] == "lifespan.shutdown.complete"
        await lifespan


@pytest.fixture(scope="session")
async def api(redis_url: str) -> AsyncIterator[Api]:
    app = create_app(Settings(rate_limit_per_token=0, rate_limit_per_address=0), redis_url)
    async with client_for(app) as http:
        yield Api(http)
