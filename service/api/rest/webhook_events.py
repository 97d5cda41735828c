"""The tenant's webhook events over REST: an endpoint's delivery log and given-up events,
sending one again or a test event, and the tenant's event feed by cursor."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from service.api.edge.parsing import natural
from service.api.edge.problems import Problem, from_refusal
from service.api.rest.http import json_response
from service.api.rest.operation import TENANT, Operation, RestRoute, Schema, ok, problems, ref
from service.api.rest.webhooks import ENDPOINT_ID, ONE, Webhooks, in_path, not_found
from service.refusals import Refused
from service.webhooks.model import (
    EVENTS_PAGE,
    FAILED_LENGTH,
    LOG_LENGTH,
    TEST_EVENT,
    Attempt,
    parse_message_id,
)
from service.webhooks.tenant_events import ListedEvent


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


async def list_webhook_deliveries(hooks: Webhooks, request: Request) -> Response:
    tenant, endpoint_id = hooks.tenant_of(request), request.path_params["endpoint_id"]
    last = _last(request, LOG_LENGTH)
    if await hooks.endpoints.get(tenant, endpoint_id) is None:
        raise not_found(endpoint_id)
    attempts = await hooks.tenant_events.log(tenant, endpoint_id, last)
    body = {"deliveries": [delivery_json(a) for a in attempts]}
    return json_response(body, headers={"vary": "x-api-key"})


async def list_webhook_failed_events(hooks: Webhooks, request: Request) -> Response:
    tenant, endpoint_id = hooks.tenant_of(request), request.path_params["endpoint_id"]
    last = _last(request, FAILED_LENGTH)
    if await hooks.endpoints.get(tenant, endpoint_id) is None:
        raise not_found(endpoint_id)
    failed = await hooks.tenant_events.failed(tenant, endpoint_id, last)
    body = {"failedEvents": [failed_json(message, when) for message, when in failed]}
    return json_response(body, headers={"vary": "x-api-key"})


async def retry_webhook_event(hooks: Webhooks, request: Request) -> Response:
    tenant, endpoint_id = hooks.tenant_of(request), request.path_params["endpoint_id"]
    event_id = request.path_params["event_id"]
    if not await hooks.tenant_events.retry(tenant, endpoint_id, event_id):
        detail = f"no event {event_id[:100]!r} for endpoint {endpoint_id[:100]!r}"
        raise Problem("NOT_FOUND", detail, title="No such event or endpoint")
    return json_response({"queued": True}, 202)


async def redeliver_webhook_event(hooks: Webhooks, request: Request) -> Response:
    return await retry_webhook_event(hooks, request)


async def send_test_webhook_event(hooks: Webhooks, request: Request) -> Response:
    tenant, endpoint_id = hooks.tenant_of(request), request.path_params["endpoint_id"]
    message = await hooks.tenant_events.send_test(tenant, endpoint_id)
    if message is None:
        raise not_found(endpoint_id)
    return json_response({"eventId": message}, 202)


async def list_webhook_events(hooks: Webhooks, request: Request) -> Response:
    tenant, query = hooks.tenant_of(request), request.query_params
    first = natural(query.get("first", "20"))
    if first is None or not 1 <= first <= EVENTS_PAGE:
        raise Problem("BAD_REQUEST", f"first is a whole number from 1 to {EVENTS_PAGE}")
    types = [t.strip() for t in query.get("types", "").split(",") if t.strip()]
    try:
        page = await hooks.tenant_events.events(tenant, query.get("after"), types, first)
    except Refused as exc:
        raise from_refusal(exc, title="Invalid event listing") from None
    body = {
        "events": [listed_json(e) for e in page.events],
        "endCursor": page.end_cursor,
        "hasMore": page.has_next,
    }
    return json_response(body, headers={"vary": "x-api-key"})


def last(most: int) -> Schema:
    return {
        "name": "last",
        "in": "query",
        "required": False,
        "schema": {"type": "integer", "minimum": 1, "maximum": most, "default": 20},
    }


EVENT_ID = in_path("eventId")
ONE_EVENT = f"{ONE}/events/{{event_id}}"

DELIVERIES = RestRoute(
    f"{ONE}/deliveries",
    "GET",
    list_webhook_deliveries,
    Operation(
        "listWebhookDeliveries",
        "The endpoint's last delivery attempts, newest first.",
        TENANT,
        {
            **ok(ref("WebhookDeliveries"), "the attempts", "200"),
            **problems("NOT_FOUND", "UNAUTHORIZED"),
        },
        parameters=[ENDPOINT_ID, last(LOG_LENGTH)],
    ),
)
FAILED = RestRoute(
    f"{ONE}/failed-events",
    "GET",
    list_webhook_failed_events,
    Operation(
        "listWebhookFailedEvents",
        "Events whose delivery was given up, newest first; redeliverable while kept.",
        TENANT,
        {
            **ok(ref("WebhookFailedEvents"), "the given-up events", "200"),
            **problems("NOT_FOUND", "UNAUTHORIZED"),
        },
        parameters=[ENDPOINT_ID, last(FAILED_LENGTH)],
    ),
)
REDELIVER = RestRoute(
    f"{ONE_EVENT}/redeliver",
    "POST",
    redeliver_webhook_event,
    Operation(
        "redeliverWebhookEvent",
        "Send an event (kept 3 days) to the endpoint again, same id and body.",
        TENANT,
        {
            **ok(ref("WebhookRedelivery"), "queued", "202"),
            **problems("NOT_FOUND", "UNAUTHORIZED", "RATE_LIMITED"),
        },
        parameters=[ENDPOINT_ID, EVENT_ID],
    ),
)
RETRY = RestRoute(
    f"{ONE_EVENT}/retry",
    "POST",
    retry_webhook_event,
    Operation(
        "retryWebhookEvent",
        "Send an event to the endpoint now: a retrying one at once, in its game's order, "
        "without using up a retry; a given-up or delivered one again.",
        TENANT,
        {
            **ok(ref("WebhookRedelivery"), "queued", "202"),
            **problems("NOT_FOUND", "UNAUTHORIZED", "RATE_LIMITED"),
        },
        parameters=[ENDPOINT_ID, EVENT_ID],
    ),
)
TEST = RestRoute(
    f"{ONE}/test",
    "POST",
    send_test_webhook_event,
    Operation(
        "sendTestWebhookEvent",
        f"Send a signed `{TEST_EVENT}` event to this endpoint only.",
        TENANT,
        {
            **ok(ref("WebhookTestSent"), "queued", "202"),
            **problems("NOT_FOUND", "UNAUTHORIZED", "RATE_LIMITED"),
        },
        parameters=[ENDPOINT_ID],
    ),
)
FEED = RestRoute(
    "/v1/webhooks/events",
    "GET",
    list_webhook_events,
    Operation(
        "listWebhookEvents",
        "The tenant's events (kept 3 days), oldest first, to catch up by cursor: pass "
        "`endCursor` as `after`. A page reads a bounded number of events, so with `types` it "
        "may hold fewer than `first` while `hasMore` is true.",
        TENANT,
        {
            **ok(ref("WebhookEventPage"), "a page of events", "200"),
            **problems("BAD_REQUEST", "BAD_USER_INPUT", "UNAUTHORIZED"),
        },
        parameters=[
            {
                "name": "after",
                "in": "query",
                "required": False,
                "schema": {"type": "string"},
                "description": "A cursor from an earlier page; absent: the oldest kept.",
            },
            {
                "name": "types",
                "in": "query",
                "required": False,
                "schema": {"type": "string"},
                "description": "Event types, comma-separated; absent: every type.",
            },
            {
                "name": "first",
                "in": "query",
                "required": False,
                "schema": {"type": "integer", "minimum": 1, "maximum": EVENTS_PAGE, "default": 20},
            },
        ],
    ),
)
