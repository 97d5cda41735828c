"""Tests and retries asked for by hand are bounded (service/webhooks/tenant_events.py, `spend`):
MANUAL_PER_ENDPOINT a minute for an endpoint, MANUAL_PER_TENANT for its tenant, each bucket
refilled over a minute; beyond, RATE_LIMITED with the seconds to wait (REST 429 and
Retry-After, GraphQL `extensions.retryAfter`), nothing queued. A test event's message is kept
an hour, not the three days of a game's. The API alone on a Redis of its own: what is queued
is read from Redis, no delivery is needed."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import httpx
import pytest

from service.app import create_app
from service.refusals import Code, Refused
from service.settings import Settings
from service.store import Client, RedisStore, connect
from service.webhooks.model import (
    MANUAL,
    MANUAL_PER_ENDPOINT,
    MANUAL_PER_TENANT,
    TEST_RETENTION,
    message_key,
    queue_key,
)
from service.webhooks.tenant_events import TenantEvents
from tests.conftest import client_for, own_redis
from tests.support.tenants import ACME, GLOBEX
from tests.webhooks.harness import SETTINGS

REST = "/v1/webhooks/endpoints"
CREATE = """
mutation($url: String!) { createWebhookEndpoint(url: $url) { endpoint { id } } }"""
TEST = "mutation($e: ID!) { sendTestWebhookEvent(endpointId: $e) }"


@pytest.fixture
async def api() -> AsyncIterator[tuple[httpx.AsyncClient, Client]]:
    with own_redis() as url:
        redis = connect(Settings(), url)
        async with client_for(create_app(SETTINGS, url)) as http:
            yield http, redis
        await redis.aclose()


async def _endpoint(http: httpx.AsyncClient, key: str, n: int) -> str:
    answer = await http.post(
        "/graphql",
        json={"query": CREATE, "variables": {"url": f"http://127.0.0.1:9/hook/{n}"}},
        headers={"x-api-key": key},
    )
    endpoint_id: str = answer.json()["data"]["createWebhookEndpoint"]["endpoint"]["id"]
    return endpoint_id


async def _test(http: httpx.AsyncClient, key: str, endpoint_id: str) -> httpx.Response:
    return await http.post(f"{REST}/{endpoint_id}/test", headers={"x-api-key": key})


async def test_tests_and_retries_are_bounded_per_endpoint(
    api: tuple[httpx.AsyncClient, Client],
) -> None:
    http, redis = api
    endpoint_id = await _endpoint(http, ACME, 0)
    sent = []
    for _ in range(MANUAL_PER_ENDPOINT):
        answer = await _test(http, ACME, endpoint_id)
        assert answer.status_code == 202, answer.text
        sent.append(answer.json()["eventId"])
    # whatever refilled meanwhile on a slow machine (a token each 6 s) spent, an hour ahead
    events, ahead = TenantEvents(RedisStore(redis, SETTINGS)), time.time() + 3600
    for _ in range(MANUAL_PER_ENDPOINT):
        await events.spend("acme", endpoint_id, now=ahead)

    refused = await _test(http, ACME, endpoint_id)
    assert refused.status_code == 429 and refused.json()["code"] == "RATE_LIMITED"
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    by_graphql = await http.post(
        "/graphql",
        json={"query": TEST, "variables": {"e": endpoint_id}},
        headers={"x-api-key": ACME},
    )
    error = by_graphql.json()["errors"][0]
    assert error["extensions"]["code"] == "RATE_LIMITED"
    assert 1 <= error["extensions"]["retryAfter"] <= 60
    retry = await http.post(
        f"{REST}/{endpoint_id}/events/{sent[0]}/retry", headers={"x-api-key": ACME}
    )
    assert retry.status_code == 429, "a retry draws on the same bucket"
    queued = await redis.lrange(queue_key("acme", endpoint_id, MANUAL), 0, -1)
    assert [m.decode() for m in queued] == sent, "nothing queued beyond the bound"
    assert 0 < await redis.ttl(message_key("acme", sent[0])) <= TEST_RETENTION

    other = await _endpoint(http, ACME, 1)
    answer = await _test(http, ACME, other)
    assert answer.status_code == 202, "each endpoint a bucket of its own"
    globex = await _endpoint(http, GLOBEX, 2)
    assert (await _test(http, GLOBEX, globex)).status_code == 202, "each tenant its own"


async def test_a_tenants_tests_are_bounded_across_its_endpoints(
    api: tuple[httpx.AsyncClient, Client],
) -> None:
    """The tenant's bucket spent on its other endpoints (stamped an hour ahead, so that no
    second of a busy machine refills it before the request below) refuses a fresh one's."""
    http, redis = api
    events = TenantEvents(RedisStore(redis, SETTINGS))
    ahead = time.time() + 3600
    for n in range(MANUAL_PER_TENANT // MANUAL_PER_ENDPOINT):
        endpoint_id = await _endpoint(http, ACME, n)
        for _ in range(MANUAL_PER_ENDPOINT):
            await events.spend("acme", endpoint_id, now=ahead)
    with pytest.raises(Refused) as refused:
        await events.spend("acme", endpoint_id, now=ahead)
    assert refused.value.code is Code.RATE_LIMITED and refused.value.retry_after
    spare = await _endpoint(http, ACME, 99)
    answer = await _test(http, ACME, spare)
    assert answer.status_code == 429 and answer.json()["code"] == "RATE_LIMITED"
    unknown = await _test(http, ACME, "ep_" + "x" * 22)
    assert unknown.status_code == 404, "an unknown endpoint is not found, whatever the bucket"
