"""Fixtures of the game-service tests.

Most of them drive the service through the real app's HTTP API (GraphQL and REST, as a client
would) but pin what the game service does: the adapters only translate."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from tests.support.tenants import tenants_app


@pytest.fixture(scope="module")
async def http(redis_url: str) -> AsyncIterator[httpx.AsyncClient]:
    """The app with two tenants (tests.support.tenants: ACME and GLOBEX), one per module."""
    async with tenants_app(redis_url) as client:
        yield client
