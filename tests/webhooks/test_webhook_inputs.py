"""Input the webhook endpoint API refuses, with a typed answer and nothing stored: the URL
rules (with and without RULES_WEBHOOK_ALLOW_PRIVATE, in production), bad fields, and hostile
REST bodies and GraphQL variables."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.webhooks.webhook_tenants import (
    CREATE,
    DELETE,
    ENDPOINTS,
    GET,
    LIST,
    PUBLIC,
    ROTATE_KEYED,
    UPDATE,
    Tenants,
    error_code,
    problem,
    tenants,
)


@pytest.fixture(scope="module")
async def production(redis_url: str) -> AsyncIterator[Tenants]:
    async with tenants(redis_url, env="production") as found:
        yield found


REFUSED_ALWAYS = [
    "https://user:pass@93.184.215.14/hook",
    "https://93.184.215.14@10.0.0.1/hook",
    "https://93.184.215.14/hook#fragment",
    "ftp://93.184.215.14/hook",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "https:///hook",
    "https://",
    "",
    "93.184.215.14/hook",
    "https://93.184.215.14/" + "a" * 2100,
    "https://93.184.215.14/a\x00b",
    "https://93.184.215.14/a b",
    "https://93.184.215.14/a\nb",
    "https://93.184.215.14:0/hook",
    "https://93.184.215.14:99999/hook",
]
PRIVATE = [
    "https://127.0.0.1/hook",
    "http://127.0.0.1:8080/hook",
    "https://localhost/hook",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://10.1.2.3/hook",
    "https://192.168.1.10/hook",
    "https://172.16.0.1/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://0.0.0.0/hook",
    "https://[fe80::1]/hook",
    # IPv6 forms that carry an inward IPv4 address, and deprecated ranges
    "http://[64:ff9b::a9fe:a9fe]/hook",
    "https://[64:ff9b:1::a00:1]/hook",
    "https://[::ffff:0:7f00:1]/hook",
    "https://[2002:a9fe:a9fe::1]/hook",
    "https://[::7f00:1]/hook",
    "https://[fec0::1]/hook",
]


async def _refused_everywhere(app: Tenants, url: str) -> None:
    """BAD_USER_INPUT through both APIs, on create and on update, and nothing stored."""
    before = (await app.data(LIST, {}, app.a))["webhookEndpoints"]
    assert error_code(await app.gql(CREATE, {"url": url}, app.a)) == "BAD_USER_INPUT", url
    problem(await app.rest("POST", ENDPOINTS, app.a, json={"url": url}), 422, "BAD_USER_INPUT")
    after = (await app.data(LIST, {}, app.a))["webhookEndpoints"]
    assert after == before, f"{url!r} was stored"


@pytest.mark.parametrize("url", REFUSED_ALWAYS + PRIVATE)
async def test_urls_that_may_not_receive_webhooks_are_refused(dev: Tenants, url: str) -> None:
    await _refused_everywhere(dev, url)


@pytest.mark.parametrize("url", REFUSED_ALWAYS)
async def test_allowing_private_addresses_allows_nothing_else(private: Tenants, url: str) -> None:
    await _refused_everywhere(private, url)


async def test_allowing_private_addresses_accepts_loopback_and_private(private: Tenants) -> None:
    for url in PRIVATE:
        created = await private.create(private.a, url)
        assert created["endpoint"]["url"] == url
        await private.data(DELETE, {"id": created["endpoint"]["id"]}, private.a)


async def test_production_takes_https_only(production: Tenants) -> None:
    await _refused_everywhere(production, "http://93.184.215.14/hook")
    created = await production.create(production.a)
    await production.data(DELETE, {"id": created["endpoint"]["id"]}, production.a)


async def test_nat64_of_the_metadata_address_is_refused_in_production(production: Tenants) -> None:
    """An IPv6 form of 169.254.169.254 (through a NAT64 translator), on create and on
    update, through both APIs."""
    nat64 = "https://[64:ff9b::a9fe:a9fe]/hook"
    await _refused_everywhere(production, nat64)
    endpoint = (await production.create(production.a))["endpoint"]
    refused = await production.gql(UPDATE, {"id": endpoint["id"], "url": nat64}, production.a)
    assert error_code(refused) == "BAD_USER_INPUT"
    assert "NAT64 of 169.254.169.254: link-local" in refused["errors"][0]["message"]
    one = f"{ENDPOINTS}/{endpoint['id']}"
    problem(
        await production.rest("PATCH", one, production.a, json={"url": nat64}),
        422,
        "BAD_USER_INPUT",
    )
    got = (await production.data(GET, {"id": endpoint["id"]}, production.a))["webhookEndpoint"]
    assert got["url"] == PUBLIC and got["updatedAt"] == endpoint["updatedAt"]
    await production.data(DELETE, {"id": endpoint["id"]}, production.a)


async def test_an_update_to_a_refused_url_changes_nothing(dev: Tenants) -> None:
    endpoint = (await dev.create(dev.a))["endpoint"]
    refused = await dev.gql(UPDATE, {"id": endpoint["id"], "url": "https://10.0.0.1/"}, dev.a)
    assert error_code(refused) == "BAD_USER_INPUT"
    assert "non-public" in refused["errors"][0]["message"]
    patch = await dev.rest("PATCH", f"{ENDPOINTS}/{endpoint['id']}", dev.a, json={"url": "x"})
    problem(patch, 422, "BAD_USER_INPUT")
    got = (await dev.data(GET, {"id": endpoint["id"]}, dev.a))["webhookEndpoint"]
    assert got["url"] == PUBLIC and got["updatedAt"] == endpoint["updatedAt"]
    await dev.data(DELETE, {"id": endpoint["id"]}, dev.a)


async def test_bad_fields_are_bad_user_input(dev: Tenants) -> None:
    long = "d" * 201
    assert error_code(await dev.gql(CREATE, {"url": PUBLIC, "description": long}, dev.a)) == (
        "BAD_USER_INPUT"
    )
    unknown_type = await dev.gql(CREATE, {"url": PUBLIC, "events": ["TURN_ENDED"]}, dev.a)
    assert error_code(unknown_type) == "GRAPHQL_VALIDATION_FAILED", "the enum refuses it"
    for body in (
        {"url": PUBLIC, "events": ["turn.ended"]},
        {"url": PUBLIC, "events": ["TURN_STARTED"]},
        {"url": PUBLIC, "description": long},
    ):
        problem(await dev.rest("POST", ENDPOINTS, dev.a, json=body), 422, "BAD_USER_INPUT")
    created = await dev.rest(
        "POST", ENDPOINTS, dev.a, json={"url": PUBLIC, "events": ["turn.started"] * 3}
    )
    assert created.json()["endpoint"]["events"] == ["turn.started"], "each type once"
    await dev.rest("DELETE", f"{ENDPOINTS}/{created.json()['endpoint']['id']}", dev.a)


async def test_hostile_rest_input_gets_a_typed_4xx(dev: Tenants) -> None:
    endpoint_id = (await dev.create(dev.a))["endpoint"]["id"]
    one = f"{ENDPOINTS}/{endpoint_id}"
    deep = "[" * 20000 + "]" * 20000
    nested: Any = PUBLIC
    for _ in range(40):  # deeper than RULES_MAX_JSON_DEPTH
        nested = [nested]
    cases: list[tuple[str, str, Any, int, str]] = [
        ("POST", ENDPOINTS, {"url": 5}, 400, "BAD_REQUEST"),
        ("POST", ENDPOINTS, {"url": None}, 400, "BAD_REQUEST"),
        ("POST", ENDPOINTS, {}, 400, "BAD_REQUEST"),
        ("POST", ENDPOINTS, [PUBLIC], 400, "BAD_REQUEST"),
        ("POST", ENDPOINTS, {"url": PUBLIC, "events": "turn.started"}, 400, "BAD_REQUEST"),
        ("POST", ENDPOINTS, {"url": PUBLIC, "events": [{"a": 1}]}, 400, "BAD_REQUEST"),
        ("POST", ENDPOINTS, {"url": PUBLIC, "secret": "mine"}, 400, "BAD_REQUEST"),
        ("POST", ENDPOINTS, {"url": PUBLIC + "x" * 60000}, 422, "BAD_USER_INPUT"),
        ("POST", ENDPOINTS, {"url": PUBLIC, "description": "d" * 60000}, 422, "BAD_USER_INPUT"),
        ("POST", ENDPOINTS, {"url": nested}, 400, "BAD_REQUEST"),
        ("PATCH", one, {"enabled": "yes"}, 400, "BAD_REQUEST"),
        ("PATCH", one, {"enabled": None, "url": 1.5}, 400, "BAD_REQUEST"),
        ("PATCH", one, {"id": "ep_other"}, 400, "BAD_REQUEST"),
        ("PATCH", one, {"events": ["turn.started", None]}, 400, "BAD_REQUEST"),
        ("GET", f"{ENDPOINTS}/{'x' * 10000}", None, 404, "NOT_FOUND"),
        ("GET", f"{ENDPOINTS}/ep_%00%00", None, 404, "NOT_FOUND"),
        ("POST", f"{one}/events/{'m' * 10000}/redeliver", None, 404, "NOT_FOUND"),
        ("PUT", one, {"url": PUBLIC}, 405, "METHOD_NOT_ALLOWED"),
    ]  # fmt: skip
    for method, path, body, status, code in cases:
        kw = {} if body is None else {"json": body}
        problem(await dev.rest(method, path, dev.a, **kw), status, code)
    for raw in (deep, "{", "not json", '{"url": "' + PUBLIC + '"', "\xff"):
        for method, path in (("POST", ENDPOINTS), ("PATCH", one)):
            response = await dev.rest(method, path, dev.a, content=raw.encode("utf-8", "replace"))
            problem(response, 400, "BAD_REQUEST")
    listed = (await dev.data(LIST, {}, dev.a))["webhookEndpoints"]
    assert [e["url"] for e in listed if e["id"] == endpoint_id] == [PUBLIC], "unchanged"
    await dev.data(DELETE, {"id": endpoint_id}, dev.a)


async def test_hostile_graphql_input_gets_a_typed_error(dev: Tenants) -> None:
    for variables, code in [
        ({"url": PUBLIC + "x" * 60000}, "BAD_USER_INPUT"),
        ({"url": PUBLIC, "description": "d" * 60000}, "BAD_USER_INPUT"),
        ({"url": 5}, "GRAPHQL_VALIDATION_FAILED"),
        ({"url": PUBLIC, "events": "TURN_STARTED,GAME_FINISHED"}, "GRAPHQL_VALIDATION_FAILED"),
        ({"url": [PUBLIC]}, "GRAPHQL_VALIDATION_FAILED"),
    ]:
        assert error_code(await dev.gql(CREATE, variables, dev.a)) == code, variables
    for endpoint_id in ("x" * 50000, "", "ep_\x00" * 10, "ep_AAAAAAAAAAAAAAA/"):
        assert error_code(await dev.gql(GET, {"id": endpoint_id}, dev.a)) == "NOT_FOUND"
        body = await dev.gql(UPDATE, {"id": endpoint_id, "enabled": False}, dev.a)
        assert error_code(body) == "NOT_FOUND"


async def test_a_hostile_rotation_key_is_refused_and_rotates_nothing(dev: Tenants) -> None:
    """rotateWebhookSecret's idempotencyKey and rotate-secret's Idempotency-Key are bounded as
    a move's (1 to 200 characters): beyond, or of another type, a typed refusal, no rotation."""
    created = await dev.create(dev.a)
    endpoint_id = created["endpoint"]["id"]
    path = f"{ENDPOINTS}/{endpoint_id}/rotate-secret"
    for key, code in [
        ("k" * 201, "BAD_USER_INPUT"),
        ("k" * 60000, "BAD_USER_INPUT"),
        ("", "BAD_USER_INPUT"),
        (5, "GRAPHQL_VALIDATION_FAILED"),
        (["k"], "GRAPHQL_VALIDATION_FAILED"),
        ({"k": 1}, "GRAPHQL_VALIDATION_FAILED"),
    ]:
        body = await dev.gql(ROTATE_KEYED, {"id": endpoint_id, "key": key}, dev.a)
        assert error_code(body) == code, (str(key)[:20], body)
    rotate = (
        f'mutation {{ rotateWebhookSecret(id: "{endpoint_id}", idempotencyKey: %s) {{ secret }} }}'
    )
    assert error_code(await dev.gql(rotate % "7", {}, dev.a)) == "GRAPHQL_VALIDATION_FAILED"
    # a lone surrogate reaches no key: a GraphQL literal or a JSON body with one is malformed
    assert error_code(await dev.gql(rotate % '"\\ud800"', {}, dev.a)) == "GRAPHQL_PARSE_FAILED"
    for header in ("k" * 201, "k" * 6000, ""):
        response = await dev.rest("POST", path, dev.a, headers={"idempotency-key": header})
        problem(response, 400, "BAD_REQUEST")
    unknown = await dev.gql(ROTATE_KEYED, {"id": "x" * 50000, "key": "k" * 201}, dev.a)
    assert error_code(unknown) == "BAD_USER_INPUT", "the key is checked first"
    listed = (await dev.data(LIST, {}, dev.a))["webhookEndpoints"]
    shown = [e for e in listed if e["id"] == endpoint_id]
    assert shown[0]["updatedAt"] == created["endpoint"]["updatedAt"], "nothing rotated"
    await dev.data(DELETE, {"id": endpoint_id}, dev.a)
