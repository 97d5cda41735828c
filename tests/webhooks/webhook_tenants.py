"""The webhook endpoint tests' client: an app with two fresh tenants (their own API keys, so no
other test shares their keys), the GraphQL documents, and checks of typed refusals."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx

from service.app import create_app
from service.settings import Settings
from tests.conftest import client_for

PUBLIC = "https://93.184.215.14/hook"  # a public address literal: accepted with no DNS
ENDPOINTS = "/v1/webhooks/endpoints"
FIELDS = "id url description events enabled status failingSince createdAt updatedAt"
CREATE = f"""
mutation Create($url: String!, $events: [WebhookEventType!], $description: String) {{
  createWebhookEndpoint(url: $url, events: $events, description: $description) {{
    secret endpoint {{ {FIELDS} }}
  }}
}}"""
LIST = f"{{ webhookEndpoints {{ {FIELDS} deliveries {{ eventId }} failedEvents {{ eventId }} }} }}"
GET = f"""
query Get($id: ID!) {{
  webhookEndpoint(id: $id) {{
    {FIELDS}
    deliveries(last: 5) {{
      at eventId eventType gameId attempt outcome httpStatus latencyMs error
    }}
    failedEvents {{ eventId eventType gameId failedAt }}
  }}
}}"""
UPDATE = f"""
mutation Update($id: ID!, $url: String, $events: [WebhookEventType!], $description: String,
                $enabled: Boolean) {{
  updateWebhookEndpoint(id: $id, url: $url, events: $events, description: $description,
                        enabled: $enabled) {{ {FIELDS} }}
}}"""
DELETE = "mutation Delete($id: ID!) { deleteWebhookEndpoint(id: $id) }"
ROTATE = "mutation Rotate($id: ID!) { rotateWebhookSecret(id: $id) { secret endpoint { id } } }"
ROTATE_KEYED = "mutation Rotate($id: ID!, $key: String) { rotateWebhookSecret(id: $id, idempotencyKey: $key) { secret endpoint { id } } }"  # fmt: skip
REDELIVER = """
mutation Redeliver($endpoint: ID!, $event: ID!) {
  redeliverWebhookEvent(endpointId: $endpoint, eventId: $event)
}"""
DELIVERIES = "query D($id: ID!, $last: Int!) { webhookEndpoint(id: $id) { deliveries(last: $last) { eventId } } }"  # fmt: skip
FAILED = "query F($id: ID!, $last: Int!) { webhookEndpoint(id: $id) { failedEvents(last: $last) { eventId } } }"  # fmt: skip


@dataclass
class Tenants:
    """An app whose RULES_API_KEYS name two fresh tenants."""

    http: httpx.AsyncClient
    a: str  # tenant ids
    b: str
    keys: dict[str, str]  # tenant -> its API key

    async def gql(self, query: str, variables: dict[str, Any], tenant: str | None) -> Any:
        headers = {"x-api-key": self.keys[tenant]} if tenant else {}
        response = await self.http.post(
            "/graphql", json={"query": query, "variables": variables}, headers=headers
        )
        assert response.status_code == 200, response.text
        return response.json()

    async def data(self, query: str, variables: dict[str, Any], tenant: str) -> Any:
        body = await self.gql(query, variables, tenant)
        assert "errors" not in body, body
        return body["data"]

    async def rest(self, method: str, path: str, tenant: str | None, **kw: Any) -> httpx.Response:
        headers = {"x-api-key": self.keys[tenant]} if tenant else {}
        headers.update(kw.pop("headers", {}))
        return await self.http.request(method, path, headers=headers, **kw)

    async def create(self, tenant: str, url: str = PUBLIC, **fields: Any) -> dict[str, Any]:
        created = await self.data(CREATE, {"url": url, **fields}, tenant)
        payload: dict[str, Any] = created["createWebhookEndpoint"]
        return payload


@asynccontextmanager
async def tenants(
    redis_url: str, like: Tenants | None = None, **settings: Any
) -> AsyncIterator[Tenants]:
    """Two fresh tenants, or the tenants of `like` on an app of other settings."""
    if like is None:
        a, b = f"wa-{secrets.token_hex(4)}", f"wb-{secrets.token_hex(4)}"
        keys = {a: secrets.token_urlsafe(16), b: secrets.token_urlsafe(16)}
    else:
        a, b, keys = like.a, like.b, like.keys
    configured = Settings(
        api_keys=tuple(f"{t}:{k}" for t, k in keys.items()),
        rate_limit_per_token=0,
        rate_limit_per_address=0,
        **settings,
    )
    async with client_for(create_app(configured, redis_url)) as http:
        yield Tenants(http, a, b, keys)


def error_code(body: dict[str, Any]) -> str:
    assert body.get("errors"), body
    code: str = body["errors"][0]["extensions"]["code"]
    return code


def problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["code"] == code and body["status"] == status, body
    return body
