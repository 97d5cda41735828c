"""Fixtures of the webhook endpoint API tests: two tenants managing webhook endpoints, in
development (loopback receivers refused) and with private receivers allowed."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.webhooks.webhook_tenants import Tenants, tenants


@pytest.fixture(scope="module")
async def dev(redis_url: str) -> AsyncIterator[Tenants]:
    async with tenants(redis_url) as found:
        yield found


@pytest.fixture(scope="module")
async def private(redis_url: str) -> AsyncIterator[Tenants]:
    async with tenants(redis_url, webhook_allow_private=True) as found:
        yield found
