"""The REST mirror of the webhook endpoint API (service/api/graphql/webhooks.py) under
/v1/webhooks/endpoints: same store, same checks, same codes, problem details like every route.

Event types are their wire names ("turn.started"); times are epoch seconds, like the rest of
the REST API.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from service.api.edge.problems import Problem, from_refusal
from service.api.rest.http import json_response, read_body
from service.api.rest.operation import (
    TENANT,
    Operation,
    RestRoute,
    Schema,
    body,
    ok,
    problems,
    ref,
)
from service.core import GameService
from service.core.moves.opening import MAX_IDEMPOTENCY_KEY
from service.refusals import Refused
from service.webhooks.endpoints import BadEndpoint, EndpointStore
from service.webhooks.model import Endpoint
from service.webhooks.tenant_events import TenantEvents

BASE = "/v1/webhooks/endpoints"
ONE = f"{BASE}/{{endpoint_id}}"
NO_ENDPOINT = "No such webhook endpoint"


class EndpointBody(msgspec.Struct, forbid_unknown_fields=True):
    url: str
    events: list[str] | None = None
    description: str | None = None


class EndpointChanges(msgspec.Struct, forbid_unknown_fields=True):
    url: str | None = None
    events: list[str] | None = None
    description: str | None = None
    enabled: bool | None = None


def endpoint_json(endpoint: Endpoint, failing_since: float | None) -> dict[str, Any]:
    """An endpoint as REST shows it: never its secret."""
    status = "HEALTHY" if failing_since is None else "FAILING"
    return {
        "id": endpoint.id,
        "url": endpoint.url,
        "description": endpoint.description,
        "events": endpoint.events,
        "enabled": endpoint.enabled,
        "status": status if endpoint.enabled else "DISABLED",
        "failingSince": failing_since,
        "createdAt": endpoint.created,
        "updatedAt": endpoint.updated,
    }


def not_found(endpoint_id: str) -> Problem:
    return Problem("NOT_FOUND", f"no webhook endpoint {endpoint_id[:100]!r}", title=NO_ENDPOINT)


def _refused(exc: BadEndpoint) -> Problem:
    return from_refusal(exc, title="Invalid webhook endpoint")


@dataclass(frozen=True)
class Webhooks:
    """What the webhook routes' handlers are handed: the tenant's endpoints and events."""

    service: GameService
    endpoints: EndpointStore
    tenant_events: TenantEvents
    max_depth: int

    def tenant_of(self, request: Request) -> str:
        try:
            return self.service.webhook_tenant(request.headers.get("x-api-key"))
        except Refused as refused:
            raise from_refusal(refused) from None

    async def shown(self, tenant: str, endpoint: Endpoint | None, endpoint_id: str) -> Schema:
        if endpoint is None:
            raise not_found(endpoint_id)
        return endpoint_json(endpoint, await self.endpoints.failing_since(tenant, endpoint.id))


async def list_webhook_endpoints(hooks: Webhooks, request: Request) -> Response:
    tenant = hooks.tenant_of(request)
    found = await hooks.endpoints.list(tenant)
    failing = await hooks.endpoints.failing(tenant) if found else {}
    body = {"endpoints": [endpoint_json(e, failing.get(e.id)) for e in found]}
    return json_response(body, headers={"vary": "x-api-key"})


async def create_webhook_endpoint(hooks: Webhooks, request: Request) -> Response:
    tenant = hooks.tenant_of(request)
    body = await read_body(request, EndpointBody, hooks.max_depth)
    try:
        endpoint = await hooks.endpoints.create(tenant, body.url, body.events, body.description)
    except BadEndpoint as exc:
        raise _refused(exc) from None
    return json_response(
        {"endpoint": endpoint_json(endpoint, None), "secret": endpoint.secret},
        201,
        {"location": f"{BASE}/{endpoint.id}"},
    )


async def get_webhook_endpoint(hooks: Webhooks, request: Request) -> Response:
    tenant, endpoint_id = hooks.tenant_of(request), request.path_params["endpoint_id"]
    endpoint = await hooks.endpoints.get(tenant, endpoint_id)
    body = await hooks.shown(tenant, endpoint, endpoint_id)
    return json_response(body, headers={"vary": "x-api-key"})


async def update_webhook_endpoint(hooks: Webhooks, request: Request) -> Response:
    tenant, endpoint_id = hooks.tenant_of(request), request.path_params["endpoint_id"]
    changes = await read_body(request, EndpointChanges, hooks.max_depth)
    try:
        endpoint = await hooks.endpoints.update(
            tenant,
            endpoint_id,
            url=changes.url,
            events=changes.events,
            description=changes.description,
            enabled=changes.enabled,
        )
    except BadEndpoint as exc:
        raise _refused(exc) from None
    return json_response(await hooks.shown(tenant, endpoint, endpoint_id))


async def delete_webhook_endpoint(hooks: Webhooks, request: Request) -> Response:
    tenant, endpoint_id = hooks.tenant_of(request), request.path_params["endpoint_id"]
    if not await hooks.endpoints.delete(tenant, endpoint_id):
        raise not_found(endpoint_id)
    return Response(status_code=204)


async def rotate_webhook_secret(hooks: Webhooks, request: Request) -> Response:
    tenant, endpoint_id = hooks.tenant_of(request), request.path_params["endpoint_id"]
    key = request.headers.get("idempotency-key")
    try:
        hooks.service.check_idempotency_key(key)
    except Refused as refused:
        raise Problem("BAD_REQUEST", refused.message) from None
    endpoint = await hooks.endpoints.rotate(tenant, endpoint_id, key)
    body = await hooks.shown(tenant, endpoint, endpoint_id)
    assert endpoint is not None  # shown() refused it otherwise
    return json_response({"endpoint": body, "secret": endpoint.secret})


def in_path(name: str) -> Schema:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


ENDPOINT_ID = in_path("endpointId")
LOCATION = {"description": "The new endpoint's URL.", "schema": {"type": "string"}}
CREATED = ok(ref("WebhookEndpointWithSecret"), "created; the secret is shown this once", "201")

LIST = RestRoute(
    BASE,
    "GET",
    list_webhook_endpoints,
    Operation(
        "listWebhookEndpoints",
        "The tenant's webhook endpoints, oldest first (never their secrets).",
        TENANT,
        {**ok(ref("WebhookEndpointList"), "the endpoints", "200"), **problems("UNAUTHORIZED")},
    ),
)
CREATE = RestRoute(
    BASE,
    "POST",
    create_webhook_endpoint,
    Operation(
        "createWebhookEndpoint",
        "A new endpoint for the tenant's events; the answer holds its secret, once.",
        TENANT,
        {
            "201": {**CREATED["201"], "headers": {"Location": LOCATION}},
            **problems("BAD_USER_INPUT", "UNAUTHORIZED"),
        },
        request_body=body(ref("CreateWebhookEndpoint")),
    ),
)
GET = RestRoute(
    ONE,
    "GET",
    get_webhook_endpoint,
    Operation(
        "getWebhookEndpoint",
        "One of the tenant's endpoints.",
        TENANT,
        {
            **ok(ref("WebhookEndpoint"), "the endpoint", "200"),
            **problems("NOT_FOUND", "UNAUTHORIZED"),
        },
        parameters=[ENDPOINT_ID],
    ),
)
UPDATE = RestRoute(
    ONE,
    "PATCH",
    update_webhook_endpoint,
    Operation(
        "updateWebhookEndpoint",
        "Change the given fields (absent or null: kept; events []: every type).",
        TENANT,
        {
            **ok(ref("WebhookEndpoint"), "the endpoint as changed", "200"),
            **problems("NOT_FOUND", "UNAUTHORIZED", "BAD_USER_INPUT"),
        },
        parameters=[ENDPOINT_ID],
        request_body=body(ref("UpdateWebhookEndpoint")),
    ),
)
DELETE = RestRoute(
    ONE,
    "DELETE",
    delete_webhook_endpoint,
    Operation(
        "deleteWebhookEndpoint",
        "The endpoint, its log and its undelivered events are gone.",
        TENANT,
        {"204": {"description": "deleted"}, **problems("NOT_FOUND", "UNAUTHORIZED")},
        parameters=[ENDPOINT_ID],
    ),
)
ROTATE = RestRoute(
    f"{ONE}/rotate-secret",
    "POST",
    rotate_webhook_secret,
    Operation(
        "rotateWebhookSecret",
        "A new secret, shown this once; the previous one still signs for 24 hours.",
        TENANT,
        {
            **ok(ref("WebhookEndpointWithSecret"), "the new secret", "200"),
            **problems("NOT_FOUND", "UNAUTHORIZED", "BAD_REQUEST"),
        },
        parameters=[
            ENDPOINT_ID,
            {
                "name": "Idempotency-Key",
                "in": "header",
                "schema": {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY},
                "description": "Names this rotation: a retry with the same key rotates nothing "
                "while the secret is the one that rotation made, and answers that secret.",
            },
        ],
    ),
)
