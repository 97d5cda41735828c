"""Shared fixtures: a real Redis server process and the real ASGI app.

Tests use `TEST_REDIS_URL` when it is set, else a throwaway redis-server on a free loopback
port (never the machine's own Redis on 6379). Game ids are random, so tests never collide.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from service.app import create_app
from service.settings import Settings
from service.store.embedded import EmbeddedRedis, EmbeddedRedisCluster


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    url = os.environ.get("TEST_REDIS_URL")
    if url:
        yield url
        return
    server = EmbeddedRedisCluster() if os.environ.get("TEST_REDIS_CLUSTER") else EmbeddedRedis()
    server.start()
    try:
        yield server.url
    finally:
        server.cleanup()


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
