"""The REST mirror of the webhook endpoint API (service/api/graphql/webhooks.py) under
/v1/webhooks/endpoints: same store, same checks, same codes, problem details like every route.

Event types are their wire names ("turn.started"); times are epoch seconds, like the rest of
the REST API.
"""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from service.api.edge.parsing import natural
from service.api.edge.problems import Problem, from_refusal
from service.api.rest.routes import guarded, json_response, read_body
from service.core import GameService
from service.refusals import Refused
from service.webhooks.endpoints import BadEndpoint, EndpointStore
from service.webhooks.model import (
    EVENTS_PAGE,
    FAILED_LENGTH,
    LOG_LENGTH,
    Attempt,
    Endpoint,
    parse_message_id,
)
from service.webhooks.tenant_events import ListedEvent, TenantEvents

BASE = "/v1/webhooks/endpoints"
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


def delivery_json(attempt: Attempt) -> dict[str, Any]:
    return {
        "at": attempt.at,
        "eventId": attempt.message,
        "eventType": attempt.type,
        "gameId": attempt.game_id,
        "attempt": attempt.attempt,
        "outcome": attempt.outcome,
        "httpStatus": attempt.status,
        "latencyMs": attempt.latency_ms,
        "error": attempt.error or None,
    }


def failed_json(message: str, when: float) -> dict[str, Any]:
    parsed = parse_message_id(message)
    return {
        "eventId": message,
        "eventType": None if parsed is None else parsed[2],
        "gameId": None if parsed is None else parsed[0],
        "failedAt": when,
    }


def listed_json(listed: ListedEvent) -> dict[str, Any]:
    body = msgspec.json.decode(listed.body)
    parsed = parse_message_id(listed.message)
    return {
        "id": listed.message,
        "type": body.get("type"),
        "gameId": None if parsed is None else parsed[0],
        "createdAt": body.get("timestamp"),
        "cursor": listed.cursor,
        "payload": body,
    }


def _last(request: Request, most: int) -> int:
    last = natural(request.query_params.get("last", "20"))
    if last is None or not 1 <= last <= most:
        raise Problem("BAD_REQUEST", f"last is a whole number from 1 to {most}")
    return last


def _not_found(endpoint_id: str) -> Problem:
    return Problem("NOT_FOUND", f"no webhook endpoint {endpoint_id[:100]!r}", title=NO_ENDPOINT)


def routes(
    service: GameService, endpoints: EndpointStore, tenant_events: TenantEvents, max_depth: int
) -> list[Route]:
    def tenant_of(request: Request) -> str:
        try:
            return service.webhook_tenant(request.headers.get("x-api-key"))
        except Refused as refused:
            raise from_refusal(refused) from None

    async def shown(tenant: str, endpoint: Endpoint | None, endpoint_id: str) -> dict[str, Any]:
        if endpoint is None:
            raise _not_found(endpoint_id)
        return endpoint_json(endpoint, await endpoints.failing_since(tenant, endpoint.id))

    def refused(exc: BadEndpoint) -> Problem:
        return from_refusal(exc, title="Invalid webhook endpoint")

    async def list_webhook_endpoints(request: Request) -> Response:
        tenant = tenant_of(request)
        found = await endpoints.list(tenant)
        failing = await endpoints.failing(tenant) if found else {}
        body = {"endpoints": [endpoint_json(e, failing.get(e.id)) for e in found]}
        return json_response(body, headers={"vary": "x-api-key"})

    async def create_webhook_endpoint(request: Request) -> Response:
        tenant = tenant_of(request)
        body = await read_body(request, EndpointBody, max_depth)
        try:
            endpoint = await endpoints.create(tenant, body.url, body.events, body.description)
        except BadEndpoint as exc:
            raise refused(exc) from None
        return json_response(
            {"endpoint": endpoint_json(endpoint, None), "secret": endpoint.secret},
            201,
            {"location": f"{BASE}/{endpoint.id}"},
        )

    async def get_webhook_endpoint(request: Request) -> Response:
        tenant, endpoint_id = tenant_of(request), request.path_params["endpoint_id"]
        endpoint = await endpoints.get(tenant, endpoint_id)
        body = await shown(tenant, endpoint, endpoint_id)
        return json_response(body, headers={"vary": "x-api-key"})

    async def update_webhook_endpoint(request: Request) -> Response:
        tenant, endpoint_id = tenant_of(request), request.path_params["endpoint_id"]
        changes = await read_body(request, EndpointChanges, max_depth)
        try:
            endpoint = await endpoints.update(
                tenant,
                endpoint_id,
                url=changes.url,
                events=changes.events,
                description=changes.description,
                enabled=changes.enabled,
            )
        except BadEndpoint as exc:
            raise refused(exc) from None
        return json_response(await shown(tenant, endpoint, endpoint_id))

    async def delete_webhook_endpoint(request: Request) -> Response:
        tenant, endpoint_id = tenant_of(request), request.path_params["endpoint_id"]
        if not await endpoints.delete(tenant, endpoint_id):
            raise _not_found(endpoint_id)
        return Response(status_code=204)

    async def rotate_webhook_secret(request: Request) -> Response:
        tenant, endpoint_id = tenant_of(request), request.path_params["endpoint_id"]
        key = request.headers.get("idempotency-key")
        try:
            service.check_idempotency_key(key)
        except Refused as refused:
            raise Problem("BAD_REQUEST", refused.message) from None
        endpoint = await endpoints.rotate(tenant, endpoint_id, key)
        body = await shown(tenant, endpoint, endpoint_id)
        assert endpoint is not None  # shown() refused it otherwise
        return json_response({"endpoint": body, "secret": endpoint.secret})

    async def list_webhook_deliveries(request: Request) -> Response:
        tenant, endpoint_id = tenant_of(request), request.path_params["endpoint_id"]
        last = _last(request, LOG_LENGTH)
        if await endpoints.get(tenant, endpoint_id) is None:
            raise _not_found(endpoint_id)
        attempts = await tenant_events.log(tenant, endpoint_id, last)
        body = {"deliveries": [delivery_json(a) for a in attempts]}
        return json_response(body, headers={"vary": "x-api-key"})

    async def list_webhook_failed_events(request: Request) -> Response:
        tenant, endpoint_id = tenant_of(request), request.path_params["endpoint_id"]
        last = _last(request, FAILED_LENGTH)
        if await endpoints.get(tenant, endpoint_id) is None:
            raise _not_found(endpoint_id)
        failed = await tenant_events.failed(tenant, endpoint_id, last)
        body = {"failedEvents": [failed_json(message, when) for message, when in failed]}
        return json_response(body, headers={"vary": "x-api-key"})

    async def retry_webhook_event(request: Request) -> Response:
        tenant, endpoint_id = tenant_of(request), request.path_params["endpoint_id"]
        event_id = request.path_params["event_id"]
        if not await tenant_events.retry(tenant, endpoint_id, event_id):
            detail = f"no event {event_id[:100]!r} for endpoint {endpoint_id[:100]!r}"
            raise Problem("NOT_FOUND", detail, title="No such event or endpoint")
        return json_response({"queued": True}, 202)

    async def redeliver_webhook_event(request: Request) -> Response:
        return await retry_webhook_event(request)

    async def send_test_webhook_event(request: Request) -> Response:
        tenant, endpoint_id = tenant_of(request), request.path_params["endpoint_id"]
        message = await tenant_events.send_test(tenant, endpoint_id)
        if message is None:
            raise _not_found(endpoint_id)
        return json_response({"eventId": message}, 202)

    async def list_webhook_events(request: Request) -> Response:
        tenant, query = tenant_of(request), request.query_params
        first = natural(query.get("first", "20"))
        if first is None or not 1 <= first <= EVENTS_PAGE:
            raise Problem("BAD_REQUEST", f"first is a whole number from 1 to {EVENTS_PAGE}")
        types = [t.strip() for t in query.get("types", "").split(",") if t.strip()]
        try:
            page = await tenant_events.events(tenant, query.get("after"), types, first)
        except Refused as exc:
            raise from_refusal(exc, title="Invalid event listing") from None
        body = {
            "events": [listed_json(e) for e in page.events],
            "endCursor": page.end_cursor,
            "hasMore": page.has_next,
        }
        return json_response(body, headers={"vary": "x-api-key"})

    one = f"{BASE}/{{endpoint_id}}"
    return [
        Route(BASE, guarded(list_webhook_endpoints), methods=["GET"]),
        Route(BASE, guarded(create_webhook_endpoint), methods=["POST"]),
        Route(one, guarded(get_webhook_endpoint), methods=["GET"]),
        Route(one, guarded(update_webhook_endpoint), methods=["PATCH"]),
        Route(one, guarded(delete_webhook_endpoint), methods=["DELETE"]),
        Route(f"{one}/rotate-secret", guarded(rotate_webhook_secret), methods=["POST"]),
        Route(f"{one}/deliveries", guarded(list_webhook_deliveries), methods=["GET"]),
        Route(f"{one}/failed-events", guarded(list_webhook_failed_events), methods=["GET"]),
        Route(
            f"{one}/events/{{event_id}}/redeliver",
            guarded(redeliver_webhook_event),
            methods=["POST"],
        ),
        Route(f"{one}/events/{{event_id}}/retry", guarded(retry_webhook_event), methods=["POST"]),
        Route(f"{one}/test", guarded(send_test_webhook_event), methods=["POST"]),
        Route("/v1/webhooks/events", guarded(list_webhook_events), methods=["GET"]),
    ]
