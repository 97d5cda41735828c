"""The webhook endpoint API, GraphQL and REST, through the real app and a real Redis:
CRUD, the secret shown once, tenants kept apart, the per-lane flags the commit script reads,
redelivery, the delivery log, limits, rate limits and outages. Refused input:
test_webhook_inputs.py."""

from __future__ import annotations

import base64
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any, cast

import httpx
import msgspec
import pytest

from service.app import create_app
from service.settings import Settings
from service.store import Client, connect
from service.store.embedded import free_port
from service.store.jobs import LANES
from service.store.outbox import enabled_key
from service.webhooks.endpoints import rotation_digest
from service.webhooks.model import (
    MANUAL,
    MAX_ENDPOINTS,
    Attempt,
    Endpoint,
    due_key,
    endpoint_decoder,
    endpoint_encoder,
    endpoints_key,
    failed_key,
    failing_key,
    log_key,
    message_id,
    message_key,
    queue_key,
)
from tests.conftest import Api, client_for
from tests.webhooks.webhook_tenants import (
    CREATE,
    DELETE,
    DELIVERIES,
    ENDPOINTS,
    FAILED,
    GET,
    LIST,
    PUBLIC,
    REDELIVER,
    ROTATE,
    ROTATE_KEYED,
    UPDATE,
    Tenants,
    error_code,
    problem,
)


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Client]:
    client = connect(Settings(), redis_url)  # one server or a cluster, as the service does
    yield client
    await client.aclose()


async def test_graphql_round_trip(dev: Tenants) -> None:
    created = await dev.create(
        dev.a, events=["GAME_FINISHED", "TURN_STARTED"], description="push notifications"
    )
    secret, endpoint = created["secret"], created["endpoint"]
    assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:])) == 24
    assert endpoint["id"].startswith("ep_") and len(endpoint["id"]) == 19
    assert endpoint["url"] == PUBLIC and endpoint["description"] == "push notifications"
    assert endpoint["events"] == ["TURN_STARTED", "GAME_FINISHED"], "EVENT_TYPES order"
    assert endpoint["enabled"] is True and endpoint["status"] == "HEALTHY"
    assert endpoint["failingSince"] is None and endpoint["createdAt"] == endpoint["updatedAt"]
    listed = (await dev.data(LIST, {}, dev.a))["webhookEndpoints"]
    assert [e["id"] for e in listed][-1] == endpoint["id"]
    got = (await dev.data(GET, {"id": endpoint["id"]}, dev.a))["webhookEndpoint"]
    assert got["deliveries"] == [] and got["failedEvents"] == []
    assert {k: got[k] for k in endpoint} == endpoint

    changes = {"url": "http://93.184.215.14:8080/v2", "events": [], "description": ""}
    updated = await dev.data(UPDATE, {"id": endpoint["id"], **changes, "enabled": False}, dev.a)
    shown = updated["updateWebhookEndpoint"]
    assert shown["url"] == changes["url"] and shown["events"] == [] and shown["description"] == ""
    assert shown["enabled"] is False and shown["status"] == "DISABLED"
    assert shown["updatedAt"] > shown["createdAt"] == endpoint["createdAt"]
    kept = await dev.data(UPDATE, {"id": endpoint["id"], "enabled": True}, dev.a)
    assert kept["updateWebhookEndpoint"]["url"] == changes["url"], "null fields are kept"

    assert (await dev.data(DELETE, {"id": endpoint["id"]}, dev.a)) == {
        "deleteWebhookEndpoint": True
    }
    assert error_code(await dev.gql(GET, {"id": endpoint["id"]}, dev.a)) == "NOT_FOUND"
    assert error_code(await dev.gql(DELETE, {"id": endpoint["id"]}, dev.a)) == "NOT_FOUND"
    listed = (await dev.data(LIST, {}, dev.a))["webhookEndpoints"]
    assert endpoint["id"] not in [e["id"] for e in listed]


async def test_rest_round_trip(dev: Tenants) -> None:
    body = {"url": PUBLIC, "events": ["game.finished", "turn.started"], "description": "rest"}
    created = await dev.rest("POST", ENDPOINTS, dev.a, json=body)
    assert created.status_code == 201, created.text
    endpoint = created.json()["endpoint"]
    assert created.headers["location"] == f"{ENDPOINTS}/{endpoint['id']}"
    assert created.json()["secret"].startswith("whsec_")
    assert endpoint["events"] == ["turn.started", "game.finished"]
    assert endpoint["status"] == "HEALTHY" and endpoint["failingSince"] is None
    assert abs(endpoint["createdAt"] - time.time()) < 600, "epoch seconds"
    one = f"{ENDPOINTS}/{endpoint['id']}"

    listed = await dev.rest("GET", ENDPOINTS, dev.a)
    assert listed.status_code == 200 and endpoint in listed.json()["endpoints"]
    assert (await dev.rest("GET", one, dev.a)).json() == endpoint
    patched = await dev.rest("PATCH", one, dev.a, json={"enabled": False, "events": []})
    assert patched.status_code == 200, patched.text
    assert patched.json()["status"] == "DISABLED" and patched.json()["events"] == []
    assert patched.json()["url"] == PUBLIC and patched.json()["description"] == "rest"
    deliveries = await dev.rest("GET", f"{one}/deliveries?last=3", dev.a)
    assert deliveries.status_code == 200 and deliveries.json() == {"deliveries": []}
    failed = await dev.rest("GET", f"{one}/failed-events", dev.a)
    assert failed.status_code == 200 and failed.json() == {"failedEvents": []}
    rotated = await dev.rest("POST", f"{one}/rotate-secret", dev.a)
    assert rotated.status_code == 200 and rotated.json()["secret"] != created.json()["secret"]

    deleted = await dev.rest("DELETE", one, dev.a)
    assert deleted.status_code == 204 and deleted.content == b""
    problem(await dev.rest("GET", one, dev.a), 404, "NOT_FOUND")
    problem(await dev.rest("DELETE", one, dev.a), 404, "NOT_FOUND")
    problem(await dev.rest("GET", f"{one}/deliveries", dev.a), 404, "NOT_FOUND")


async def test_the_secret_is_shown_only_by_create_and_rotate(dev: Tenants, redis: Client) -> None:
    created = await dev.create(dev.a)
    first, endpoint_id = created["secret"], created["endpoint"]["id"]
    one = f"{ENDPOINTS}/{endpoint_id}"
    rotated = (await dev.data(ROTATE, {"id": endpoint_id}, dev.a))["rotateWebhookSecret"]
    second = rotated["secret"]
    assert second.startswith("whsec_") and second != first
    answers = [
        await dev.gql(LIST, {}, dev.a),
        await dev.gql(GET, {"id": endpoint_id}, dev.a),
        await dev.gql(UPDATE, {"id": endpoint_id, "description": "x"}, dev.a),
        (await dev.rest("GET", ENDPOINTS, dev.a)).text,
        (await dev.rest("GET", one, dev.a)).text,
        (await dev.rest("PATCH", one, dev.a, json={"description": "y"})).text,
    ]
    for answer in answers:
        text = str(answer)
        assert first not in text and second not in text and "whsec_" not in text, answer
    no_field = await dev.gql("{ webhookEndpoints { id secret } }", {}, dev.a)
    assert error_code(no_field) == "GRAPHQL_VALIDATION_FAILED"
    stored = msgspec.msgpack.decode(await redis.hget(endpoints_key(dev.a), endpoint_id))  # type: ignore[misc]
    assert stored["secret"] == second and stored["previous_secret"] == first
    assert abs(stored["previous_until"] - (time.time() + 24 * 3600)) < 600, "old one signs a day"
    await dev.data(DELETE, {"id": endpoint_id}, dev.a)


async def _stored(redis: Client, tenant: str, endpoint_id: str) -> dict[str, Any]:
    blob = await cast(Any, redis.hget(endpoints_key(tenant), endpoint_id))
    stored: dict[str, Any] = msgspec.msgpack.decode(blob)
    return stored


async def test_a_rotation_retried_with_its_key_answers_the_secret_it_made(
    dev: Tenants, redis: Client
) -> None:
    """The same idempotencyKey again (a retry after UNAVAILABLE or a lost answer): no new
    secret, the one the first made, and the receiver's still the previous one; another key
    rotates, and so does no key, each time, as without keys."""
    created = await dev.create(dev.a)
    original, endpoint_id = created["secret"], created["endpoint"]["id"]

    async def rotate(key: str | None) -> str:
        answer = await dev.data(ROTATE_KEYED, {"id": endpoint_id, "key": key}, dev.a)
        secret: str = answer["rotateWebhookSecret"]["secret"]
        return secret

    first = await rotate("rotation-1")
    assert first != original
    stored = await _stored(redis, dev.a, endpoint_id)
    updated = stored["updated"]
    assert await rotate("rotation-1") == first
    stored = await _stored(redis, dev.a, endpoint_id)
    assert stored["secret"] == first and stored["previous_secret"] == original
    assert stored["rotation_key"] == rotation_digest("rotation-1") != "rotation-1"
    assert stored["updated"] == updated, "nothing written"

    second = await rotate("rotation-2")
    assert second not in (original, first)
    assert await rotate("rotation-2") == second
    stored = await _stored(redis, dev.a, endpoint_id)
    assert stored["secret"] == second and stored["previous_secret"] == first

    unkeyed = await rotate(None)
    assert unkeyed != second
    assert (await dev.data(ROTATE, {"id": endpoint_id}, dev.a))["rotateWebhookSecret"][
        "secret"
    ] not in (unkeyed, second)
    stored = await _stored(redis, dev.a, endpoint_id)
    assert stored["rotation_key"] == "", "no key: none kept"
    assert await rotate("rotation-2") != stored["secret"], "a key not the last rotation's"
    await dev.data(DELETE, {"id": endpoint_id}, dev.a)


async def test_a_rest_rotation_retried_with_its_idempotency_key_answers_the_same_secret(
    dev: Tenants, redis: Client
) -> None:
    created = await dev.create(dev.a)
    original, endpoint_id = created["secret"], created["endpoint"]["id"]
    path = f"{ENDPOINTS}/{endpoint_id}/rotate-secret"

    async def rotate(key: str | None) -> str:
        headers = {} if key is None else {"idempotency-key": key}
        response = await dev.rest("POST", path, dev.a, headers=headers)
        assert response.status_code == 200, response.text
        assert response.json()["endpoint"]["id"] == endpoint_id
        secret: str = response.json()["secret"]
        return secret

    first = await rotate("rest-1")
    assert first != original and await rotate("rest-1") == first
    stored = await _stored(redis, dev.a, endpoint_id)
    assert stored["secret"] == first and stored["previous_secret"] == original
    keyed = await dev.data(ROTATE_KEYED, {"id": endpoint_id, "key": "rest-1"}, dev.a)
    assert keyed["rotateWebhookSecret"]["secret"] == first, "one key, both APIs"
    second = await rotate("rest-2")
    assert second != first and await rotate("rest-2") == second
    third = await rotate(None)
    assert third != second and await rotate(None) != third
    await dev.data(DELETE, {"id": endpoint_id}, dev.a)


async def test_a_keyed_retry_of_an_endpoint_that_is_gone_is_not_found(dev: Tenants) -> None:
    endpoint_id = (await dev.create(dev.a))["endpoint"]["id"]
    await dev.data(ROTATE_KEYED, {"id": endpoint_id, "key": "gone-1"}, dev.a)
    await dev.data(DELETE, {"id": endpoint_id}, dev.a)
    body = await dev.gql(ROTATE_KEYED, {"id": endpoint_id, "key": "gone-1"}, dev.a)
    assert error_code(body) == "NOT_FOUND"
    response = await dev.rest(
        "POST",
        f"{ENDPOINTS}/{endpoint_id}/rotate-secret",
        dev.a,
        headers={"idempotency-key": "gone-1"},
    )
    problem(response, 404, "NOT_FOUND")


def test_endpoint_records_read_across_releases() -> None:
    """rotation_key is additive: a record written before it reads with none, and one written
    with it reads in a release that does not know it (msgspec skips unknown fields)."""
    older = msgspec.msgpack.encode(
        {"id": "ep_AAAAAAAAAAAAAAAA", "url": PUBLIC, "secret": "whsec_x", "created": 1.0,
         "updated": 1.0, "previous_secret": "whsec_y", "previous_until": 2.0}
    )  # fmt: skip
    endpoint = endpoint_decoder.decode(older)
    assert endpoint.rotation_key == "" and endpoint.previous_secret == "whsec_y"

    class Before(msgspec.Struct, kw_only=True):
        id: str
        secret: str
        previous_secret: str = ""

    newer = endpoint_encoder.encode(
        Endpoint(
            id="ep_AAAAAAAAAAAAAAAA", url=PUBLIC, secret="whsec_x", created=1.0, updated=1.0,
            rotation_key=rotation_digest("k"),
        )
    )  # fmt: skip
    assert msgspec.msgpack.decode(newer, type=Before).secret == "whsec_x"


async def test_tenants_never_see_each_others_endpoints(dev: Tenants, redis: Client) -> None:
    mine = (await dev.create(dev.a, description="a's"))["endpoint"]
    theirs = (await dev.create(dev.b, description="b's"))["endpoint"]
    event = message_id("g1", 3, "game.finished")
    await redis.set(message_key(dev.a, event), b"{}", ex=600)
    one = f"{ENDPOINTS}/{mine['id']}"
    refusals = [
        await dev.gql(GET, {"id": mine["id"]}, dev.b),
        await dev.gql(UPDATE, {"id": mine["id"], "enabled": False}, dev.b),
        await dev.gql(ROTATE, {"id": mine["id"]}, dev.b),
        await dev.gql(DELETE, {"id": mine["id"]}, dev.b),
        await dev.gql(REDELIVER, {"endpoint": mine["id"], "event": event}, dev.b),
    ]
    assert [error_code(body) for body in refusals] == ["NOT_FOUND"] * len(refusals)
    for method, path in [
        ("GET", one),
        ("PATCH", one),
        ("DELETE", one),
        ("POST", f"{one}/rotate-secret"),
        ("GET", f"{one}/deliveries"),
        ("GET", f"{one}/failed-events"),
        ("POST", f"{one}/events/{event}/redeliver"),
    ]:
        kw = {"json": {"enabled": False}} if method == "PATCH" else {}
        problem(await dev.rest(method, path, dev.b, **kw), 404, "NOT_FOUND")
    ours = [e["id"] for e in (await dev.data(LIST, {}, dev.a))["webhookEndpoints"]]
    assert mine["id"] in ours and theirs["id"] not in ours
    rest_ours = [e["id"] for e in (await dev.rest("GET", ENDPOINTS, dev.b)).json()["endpoints"]]
    assert theirs["id"] in rest_ours and mine["id"] not in rest_ours
    still = (await dev.data(GET, {"id": mine["id"]}, dev.a))["webhookEndpoint"]
    assert still["enabled"] is True and still["description"] == "a's"
    assert await redis.llen(queue_key(dev.b, mine["id"], MANUAL)) == 0  # type: ignore[misc]
    assert await redis.llen(queue_key(dev.a, mine["id"], MANUAL)) == 0  # type: ignore[misc]
    for tenant, endpoint in ((dev.a, mine), (dev.b, theirs)):
        await dev.data(DELETE, {"id": endpoint["id"]}, tenant)


async def test_without_a_valid_key_webhooks_are_unauthorized(dev: Tenants) -> None:
    dev.keys["nobody"] = "not-a-key"
    one = f"{ENDPOINTS}/ep_0000000000000000"
    for tenant in (None, "nobody"):
        for query, variables in [
            (LIST, {}),
            (GET, {"id": "ep_0000000000000000"}),
            (CREATE, {"url": PUBLIC}),
            (DELETE, {"id": "ep_0000000000000000"}),
            (REDELIVER, {"endpoint": "ep_0000000000000000", "event": "msg_g.1.game.finished"}),
        ]:
            assert error_code(await dev.gql(query, variables, tenant)) == "UNAUTHORIZED", query
        for method, path in [("GET", ENDPOINTS), ("POST", ENDPOINTS), ("GET", one)]:
            kw = {"json": {"url": PUBLIC}} if method == "POST" else {}
            problem(await dev.rest(method, path, tenant, **kw), 401, "UNAUTHORIZED")


async def test_without_keys_the_default_tenant_manages_endpoints(api: Api) -> None:
    created = await api.gql(CREATE, {"url": PUBLIC, "description": "dev"})
    endpoint_id = created["createWebhookEndpoint"]["endpoint"]["id"]
    try:
        listed = await api.gql(LIST)
        assert endpoint_id in [e["id"] for e in listed["webhookEndpoints"]]
    finally:  # the default tenant is every keyless test's: leave it no endpoint
        assert (await api.gql(DELETE, {"id": endpoint_id}))["deleteWebhookEndpoint"] is True


async def _flags(redis: Client, tenant: str) -> int:
    found = 0
    for lane in range(LANES):
        found += await redis.exists(enabled_key(lane, tenant))
    return found


async def test_the_lane_flags_follow_the_enabled_endpoints(private: Tenants, redis: Client) -> None:
    tenant = private.b
    assert await _flags(redis, tenant) == 0
    first = (await private.create(tenant))["endpoint"]["id"]
    assert await _flags(redis, tenant) == LANES, "every lane's flag once one is enabled"
    await private.data(UPDATE, {"id": first, "enabled": False}, tenant)
    assert await _flags(redis, tenant) == 0, "none once none is enabled"
    second = (await private.create(tenant))["endpoint"]["id"]
    assert await _flags(redis, tenant) == LANES
    await private.data(UPDATE, {"id": first, "enabled": True}, tenant)
    await private.data(DELETE, {"id": second}, tenant)
    assert await _flags(redis, tenant) == LANES, "the first one is still enabled"
    patched = await private.rest("PATCH", f"{ENDPOINTS}/{first}", tenant, json={"enabled": False})
    assert patched.status_code == 200
    assert await _flags(redis, tenant) == 0
    await private.rest("PATCH", f"{ENDPOINTS}/{first}", tenant, json={"enabled": True})
    assert await _flags(redis, tenant) == LANES
    assert (await private.rest("DELETE", f"{ENDPOINTS}/{first}", tenant)).status_code == 204
    assert await _flags(redis, tenant) == 0, "none once the last one is deleted"


async def test_redeliver_queues_a_kept_event_and_refuses_others(
    dev: Tenants, redis: Client
) -> None:
    tenant = dev.a
    endpoint_id = (await dev.create(tenant))["endpoint"]["id"]
    kept, expired = message_id("gKept", 7, "game.finished"), message_id("gGone", 2, "turn.started")
    await redis.set(message_key(tenant, kept), b'{"type": "game.finished"}', ex=600)
    await redis.zadd(failed_key(tenant, endpoint_id), {kept: 1700000000.0, "msg_x.1.zzz": 1.0})
    got = (await dev.data(GET, {"id": endpoint_id}, tenant))["webhookEndpoint"]
    assert got["failedEvents"][0] == {
        "eventId": kept,
        "eventType": "GAME_FINISHED",
        "gameId": "gKept",
        "failedAt": "2023-11-14T22:13:20+00:00",
    }
    assert got["failedEvents"][1]["eventType"] is None, "an id that is not ours, shown as is"

    for event in (expired, "msg_nope", "x" * 5000, "msg_g.1.game.finished/../x"):
        body = await dev.gql(REDELIVER, {"endpoint": endpoint_id, "event": event}, tenant)
        assert error_code(body) == "NOT_FOUND", event
    unknown = await dev.gql(REDELIVER, {"endpoint": "ep_AAAAAAAAAAAAAAAA", "event": kept}, tenant)
    assert error_code(unknown) == "NOT_FOUND"
    problem(
        await dev.rest("POST", f"{ENDPOINTS}/{endpoint_id}/events/{expired}/redeliver", tenant),
        404,
        "NOT_FOUND",
    )
    assert await redis.exists(queue_key(tenant, endpoint_id, MANUAL)) == 0

    before = time.time()
    queued = await dev.data(REDELIVER, {"endpoint": endpoint_id, "event": kept}, tenant)
    assert queued == {"redeliverWebhookEvent": True}
    again = await dev.rest("POST", f"{ENDPOINTS}/{endpoint_id}/events/{kept}/redeliver", tenant)
    assert again.status_code == 202 and again.json() == {"queued": True}
    queue = queue_key(tenant, endpoint_id, MANUAL)
    assert await redis.lrange(queue, 0, -1) == [kept.encode()], "queued once"  # type: ignore[misc]
    assert 0 < await redis.ttl(queue) <= 3 * 24 * 3600
    due = await redis.zscore(due_key(tenant, endpoint_id), MANUAL)
    assert due is not None and before - 1 <= due <= time.time() + 1
    assert await redis.zscore(failed_key(tenant, endpoint_id), kept) is None, "no longer failed"

    await redis.hset(failing_key(tenant), endpoint_id, "1700000000")  # type: ignore[misc]
    await redis.lpush(log_key(tenant, endpoint_id), b"x")  # type: ignore[misc]
    await dev.data(DELETE, {"id": endpoint_id}, tenant)
    for key in (queue, due_key(tenant, endpoint_id), failed_key(tenant, endpoint_id)):
        assert await redis.exists(key) == 0, key
    assert await redis.exists(log_key(tenant, endpoint_id)) == 0
    assert await redis.hexists(failing_key(tenant), endpoint_id) == 0  # type: ignore[misc]


async def test_the_delivery_log_and_failing_state_are_shown(dev: Tenants, redis: Client) -> None:
    tenant = dev.b
    endpoint_id = (await dev.create(tenant))["endpoint"]["id"]
    attempts = [
        Attempt(
            at=1700000000.0 + n,
            message=message_id(f"g{n}", n, "turn.started"),
            type="turn.started",
            game_id=f"g{n}",
            attempt=n,
            outcome=outcome,
            status=status,
            latency_ms=12.5,
            error=error,
        )
        for n, (outcome, status, error) in enumerate(
            [("RETRYING", 500, "HTTP 500"), ("FAILED", None, "timeout"), ("DELIVERED", 204, "")],
            start=1,
        )
    ]
    for attempt in attempts:  # the worker pushes the newest on the left
        await redis.lpush(log_key(tenant, endpoint_id), msgspec.msgpack.encode(attempt))  # type: ignore[misc]
    await redis.hset(failing_key(tenant), endpoint_id, "1700000100.5")  # type: ignore[misc]
    got = (await dev.data(GET, {"id": endpoint_id}, tenant))["webhookEndpoint"]
    assert got["status"] == "FAILING" and got["failingSince"] == "2023-11-14T22:15:00.500000+00:00"
    assert [d["outcome"] for d in got["deliveries"]] == ["DELIVERED", "FAILED", "RETRYING"]
    assert got["deliveries"][1] == {
        "at": "2023-11-14T22:13:22+00:00",
        "eventId": "msg_g2.2.turn.started",
        "eventType": "TURN_STARTED",
        "gameId": "g2",
        "attempt": 2,
        "outcome": "FAILED",
        "httpStatus": None,
        "latencyMs": 12.5,
        "error": "timeout",
    }
    assert got["deliveries"][0]["error"] is None and got["deliveries"][0]["httpStatus"] == 204
    two = await dev.data(DELIVERIES, {"id": endpoint_id, "last": 2}, tenant)
    assert len(two["webhookEndpoint"]["deliveries"]) == 2
    rest = await dev.rest("GET", f"{ENDPOINTS}/{endpoint_id}/deliveries?last=1", tenant)
    assert rest.json()["deliveries"] == [
        {
            "at": 1700000003.0,
            "eventId": "msg_g3.3.turn.started",
            "eventType": "turn.started",
            "gameId": "g3",
            "attempt": 3,
            "outcome": "DELIVERED",
            "httpStatus": 204,
            "latencyMs": 12.5,
            "error": None,
        }
    ]
    shown = (await dev.rest("GET", f"{ENDPOINTS}/{endpoint_id}", tenant)).json()
    assert shown["status"] == "FAILING" and shown["failingSince"] == 1700000100.5
    listed = (await dev.data(LIST, {}, tenant))["webhookEndpoints"]
    assert [e["status"] for e in listed if e["id"] == endpoint_id] == ["FAILING"]

    for last in (0, -1, 101):
        body = await dev.gql(DELIVERIES, {"id": endpoint_id, "last": last}, tenant)
        assert error_code(body) == "BAD_USER_INPUT"
    for last in (0, 1001):
        assert error_code(await dev.gql(FAILED, {"id": endpoint_id, "last": last}, tenant)) == (
            "BAD_USER_INPUT"
        )
    for query in ("last=0", "last=101", "last=abc", "last=-1", "last=" + "9" * 5000):
        response = await dev.rest("GET", f"{ENDPOINTS}/{endpoint_id}/deliveries?{query}", tenant)
        problem(response, 400, "BAD_REQUEST")
    failed = await dev.rest("GET", f"{ENDPOINTS}/{endpoint_id}/failed-events?last=1000", tenant)
    assert failed.status_code == 200
    await dev.data(DELETE, {"id": endpoint_id}, tenant)


async def test_a_tenant_has_at_most_max_endpoints(dev: Tenants) -> None:
    tenant = dev.b
    existing = len((await dev.data(LIST, {}, tenant))["webhookEndpoints"])
    made = [(await dev.create(tenant))["endpoint"]["id"] for _ in range(MAX_ENDPOINTS - existing)]
    refused = await dev.gql(CREATE, {"url": PUBLIC}, tenant)
    assert error_code(refused) == "BAD_USER_INPUT" and str(MAX_ENDPOINTS) in str(refused["errors"])
    problem(await dev.rest("POST", ENDPOINTS, tenant, json={"url": PUBLIC}), 422, "BAD_USER_INPUT")
    listed = (await dev.data(LIST, {}, tenant))["webhookEndpoints"]
    assert len(listed) == MAX_ENDPOINTS
    assert [e["id"] for e in listed][-len(made) :] == made, "oldest first"
    for endpoint_id in made:
        await dev.data(DELETE, {"id": endpoint_id}, tenant)


async def test_webhook_calls_are_rate_limited_like_every_other(redis_url: str) -> None:
    """The guard admits every route: a client address over its limit is refused on the
    webhook routes too (an address of its own, so no other test's count is shared)."""
    settings = Settings(rate_limit_per_token=0, rate_limit_per_address=3)
    app = create_app(settings, redis_url)
    address = f"198.51.100.{secrets.randbelow(250) + 1}"
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    async with (
        client_for(app),
        httpx.AsyncClient(transport=transport, base_url="http://test") as http,
    ):
        answers = [(await http.get(ENDPOINTS)).status_code for _ in range(3)]
        assert answers == [200] * 3
        refused = await http.post(ENDPOINTS, json={"url": PUBLIC})
        problem(refused, 429, "RATE_LIMITED")
        graphql = await http.post("/graphql", json={"query": CREATE, "variables": {"url": PUBLIC}})
        assert graphql.status_code == 429
        assert graphql.json()["errors"][0]["extensions"]["code"] == "RATE_LIMITED"


async def test_an_unreachable_store_is_unavailable_not_a_500() -> None:
    url = f"redis://127.0.0.1:{free_port()}"  # nothing listens there
    async with client_for(create_app(Settings(redis_timeout=1.0), url)) as http:
        for query, variables in [(LIST, {}), (CREATE, {"url": PUBLIC})]:
            body = (
                await http.post("/graphql", json={"query": query, "variables": variables})
            ).json()
            assert error_code(body) == "UNAVAILABLE", body
        problem(await http.get(ENDPOINTS), 503, "UNAVAILABLE")
        problem(await http.post(ENDPOINTS, json={"url": PUBLIC}), 503, "UNAVAILABLE")


async def test_an_unreadable_endpoint_is_typed_and_leaves_the_others_listed(
    dev: Tenants, redis: Client, caplog: pytest.LogCaptureFixture
) -> None:
    """A damaged endpoint record (or one another release wrote) is UNREADABLE_RECORD where it is
    asked for by id and left out of the listing, logged once, with no traceback."""
    kept = (await dev.create(dev.a, description="kept"))["endpoint"]["id"]
    broken = (await dev.create(dev.a, description="broken"))["endpoint"]["id"]
    await redis.hset(endpoints_key(dev.a), broken, b"\xc1 not msgpack")
    for _ in range(3):
        listed = [e["id"] for e in (await dev.data(LIST, {}, dev.a))["webhookEndpoints"]]
        assert kept in listed and broken not in listed
    assert error_code(await dev.gql(GET, {"id": broken}, dev.a)) == "UNREADABLE_RECORD"
    problem(await dev.rest("GET", f"{ENDPOINTS}/{broken}", dev.a), 500, "UNREADABLE_RECORD")
    patched = await dev.rest("PATCH", f"{ENDPOINTS}/{broken}", dev.a, json={"enabled": False})
    problem(patched, 500, "UNREADABLE_RECORD")
    assert (await dev.rest("GET", ENDPOINTS, dev.a)).status_code == 200
    lines = [r for r in caplog.records if broken in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None, lines
    assert (await dev.data(DELETE, {"id": broken}, dev.a)) == {"deleteWebhookEndpoint": True}
