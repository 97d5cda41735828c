"""The webhook endpoint routes (rest_webhooks.py) in the OpenAPI document: their paths and
schemas, which openapi.openapi() merges into its own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.core.moves import MAX_IDEMPOTENCY_KEY
from service.webhooks.endpoints import MAX_DESCRIPTION
from service.webhooks.model import (
    ALL_TYPES,
    ENDPOINT_STATUSES,
    EVENTS_PAGE,
    FAILED_LENGTH,
    LOG_LENGTH,
    OUTCOMES,
    TEST_EVENT,
)
from service.webhooks.urls import MAX_URL

Schema = dict[str, Any]
TENANT: list[Schema] = [{}, {"apiKey": []}]  # the tenant's key when the server sets RULES_API_KEYS


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def paths(
    ok: Callable[[Schema, str, str], Schema],
    body: Callable[[Schema], Schema],
    problems: Callable[..., Schema],
) -> Schema:
    """`ok`, `body` and `problems` are openapi.openapi()'s own helpers."""

    def in_path(name: str) -> Schema:
        return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}

    endpoint_id, event_id = in_path("endpointId"), in_path("eventId")

    def last(most: int) -> Schema:
        return {
            "name": "last",
            "in": "query",
            "required": False,
            "schema": {"type": "integer", "minimum": 1, "maximum": most, "default": 20},
        }

    def operation(operation_id: str, summary: str, responses: Schema, **more: Any) -> Schema:
        return {
            "operationId": operation_id,
            "summary": summary,
            "security": TENANT,
            **more,
            "responses": responses,
        }

    location = {"description": "The new endpoint's URL.", "schema": {"type": "string"}}
    created = ok(_ref("WebhookEndpointWithSecret"), "created; the secret is shown this once", "201")
    return {
        "/v1/webhooks/endpoints": {
            "get": operation(
                "listWebhookEndpoints",
                "The tenant's webhook endpoints, oldest first (never their secrets).",
                {
                    **ok(_ref("WebhookEndpointList"), "the endpoints", "200"),
                    **problems("UNAUTHORIZED"),
                },
            ),
            "post": operation(
                "createWebhookEndpoint",
                "A new endpoint for the tenant's events; the answer holds its secret, once.",
                {
                    "201": {**created["201"], "headers": {"Location": location}},
                    **problems("BAD_USER_INPUT", "UNAUTHORIZED"),
                },
                requestBody=body(_ref("CreateWebhookEndpoint")),
            ),
        },
        "/v1/webhooks/endpoints/{endpointId}": {
            "get": operation(
                "getWebhookEndpoint",
                "One of the tenant's endpoints.",
                {
                    **ok(_ref("WebhookEndpoint"), "the endpoint", "200"),
                    **problems("NOT_FOUND", "UNAUTHORIZED"),
                },
                parameters=[endpoint_id],
            ),
            "patch": operation(
                "updateWebhookEndpoint",
                "Change the given fields (absent or null: kept; events []: every type).",
                {
                    **ok(_ref("WebhookEndpoint"), "the endpoint as changed", "200"),
                    **problems("NOT_FOUND", "UNAUTHORIZED", "BAD_USER_INPUT"),
                },
                parameters=[endpoint_id],
                requestBody=body(_ref("UpdateWebhookEndpoint")),
            ),
            "delete": operation(
                "deleteWebhookEndpoint",
                "The endpoint, its log and its undelivered events are gone.",
                {"204": {"description": "deleted"}, **problems("NOT_FOUND", "UNAUTHORIZED")},
                parameters=[endpoint_id],
            ),
        },
        "/v1/webhooks/endpoints/{endpointId}/rotate-secret": {
            "post": operation(
                "rotateWebhookSecret",
                "A new secret, shown this once; the previous one still signs for 24 hours.",
                {
                    **ok(_ref("WebhookEndpointWithSecret"), "the new secret", "200"),
                    **problems("NOT_FOUND", "UNAUTHORIZED", "BAD_REQUEST"),
                },
                parameters=[
                    endpoint_id,
                    {
                        "name": "Idempotency-Key",
                        "in": "header",
                        "schema": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": MAX_IDEMPOTENCY_KEY,
                        },
                        "description": "Names this rotation: a retry with the same key rotates "
                        "nothing while the secret is the one that rotation made, and answers "
                        "that secret.",
                    },
                ],
            )
        },
        "/v1/webhooks/endpoints/{endpointId}/deliveries": {
            "get": operation(
                "listWebhookDeliveries",
                "The endpoint's last delivery attempts, newest first.",
                {
                    **ok(_ref("WebhookDeliveries"), "the attempts", "200"),
                    **problems("NOT_FOUND", "UNAUTHORIZED"),
                },
                parameters=[endpoint_id, last(LOG_LENGTH)],
            )
        },
        "/v1/webhooks/endpoints/{endpointId}/failed-events": {
            "get": operation(
                "listWebhookFailedEvents",
                "Events whose delivery was given up, newest first; redeliverable while kept.",
                {
                    **ok(_ref("WebhookFailedEvents"), "the given-up events", "200"),
                    **problems("NOT_FOUND", "UNAUTHORIZED"),
                },
                parameters=[endpoint_id, last(FAILED_LENGTH)],
            )
        },
        "/v1/webhooks/endpoints/{endpointId}/events/{eventId}/redeliver": {
            "post": operation(
                "redeliverWebhookEvent",
                "Send an event (kept 3 days) to the endpoint again, same id and body.",
                {
                    **ok(_ref("WebhookRedelivery"), "queued", "202"),
                    **problems("NOT_FOUND", "UNAUTHORIZED"),
                },
                parameters=[endpoint_id, event_id],
            )
        },
        "/v1/webhooks/endpoints/{endpointId}/events/{eventId}/retry": {
            "post": operation(
                "retryWebhookEvent",
                "Send an event to the endpoint now: a retrying one at once, in its game's "
                "order, without using up a retry; a given-up or delivered one again.",
                {
                    **ok(_ref("WebhookRedelivery"), "queued", "202"),
                    **problems("NOT_FOUND", "UNAUTHORIZED"),
                },
                parameters=[endpoint_id, event_id],
            )
        },
        "/v1/webhooks/endpoints/{endpointId}/test": {
            "post": operation(
                "sendTestWebhookEvent",
                f"Send a signed `{TEST_EVENT}` event to this endpoint only.",
                {
                    **ok(_ref("WebhookTestSent"), "queued", "202"),
                    **problems("NOT_FOUND", "UNAUTHORIZED"),
                },
                parameters=[endpoint_id],
            )
        },
        "/v1/webhooks/events": {
            "get": operation(
                "listWebhookEvents",
                "The tenant's events (kept 3 days), oldest first, to catch up by cursor: pass "
                "`endCursor` as `after`. A page reads a bounded number of events, so with "
                "`types` it may hold fewer than `first` while `hasMore` is true.",
                {
                    **ok(_ref("WebhookEventPage"), "a page of events", "200"),
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
                        "schema": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": EVENTS_PAGE,
                            "default": 20,
                        },
                    },
                ],
            )
        },
    }


def schemas() -> Schema:
    string, integer, number = {"type": "string"}, {"type": "integer"}, {"type": "number"}
    nullable = {"type": ["number", "null"]}
    events = {"type": "array", "items": _ref("WebhookEventType")}
    endpoint_fields = {
        "id": string,
        "url": string,
        "description": string,
        "events": {**events, "description": "The event types it receives; empty: every type."},
        "enabled": {"type": "boolean"},
        "status": {"enum": list(ENDPOINT_STATUSES)},
        "failingSince": {**nullable, "description": "Since when deliveries give up (epoch s)."},
        "createdAt": {**number, "description": "Epoch seconds."},
        "updatedAt": {**number, "description": "Epoch seconds."},
    }
    url = {
        "type": "string",
        "maxLength": MAX_URL,
        "description": "https (http outside production) to a public address.",
    }
    description = {"type": ["string", "null"], "maxLength": MAX_DESCRIPTION}
    return {
        "WebhookEventType": {"enum": list(ALL_TYPES)},
        "WebhookEndpoint": {
            "type": "object",
            "description": "A receiver of the tenant's events; never its secret.",
            "properties": endpoint_fields,
            "required": list(endpoint_fields),
        },
        "WebhookEndpointWithSecret": {
            "type": "object",
            "properties": {
                "endpoint": _ref("WebhookEndpoint"),
                "secret": {**string, "description": "whsec_...: shown in this answer only."},
            },
            "required": ["endpoint", "secret"],
        },
        "WebhookEndpointList": {
            "type": "object",
            "properties": {"endpoints": {"type": "array", "items": _ref("WebhookEndpoint")}},
            "required": ["endpoints"],
        },
        "CreateWebhookEndpoint": {
            "type": "object",
            "properties": {
                "url": url,
                "events": {
                    **events,
                    "type": ["array", "null"],
                    "description": "null or empty: every type.",
                },
                "description": description,
            },
            "required": ["url"],
            "additionalProperties": False,
        },
        "UpdateWebhookEndpoint": {
            "type": "object",
            "properties": {
                "url": {**url, "type": ["string", "null"]},
                "events": {**events, "type": ["array", "null"]},
                "description": description,
                "enabled": {"type": ["boolean", "null"]},
            },
            "additionalProperties": False,
        },
        "WebhookDelivery": {
            "type": "object",
            "description": "One attempt to deliver an event to the endpoint.",
            "properties": {
                "at": {**number, "description": "When it started (epoch s)."},
                "eventId": {**string, "description": "The Webhook-Id."},
                "eventType": _ref("WebhookEventType"),
                "gameId": string,
                "attempt": integer,
                "outcome": {"enum": list(OUTCOMES)},
                "httpStatus": {"type": ["integer", "null"]},
                "latencyMs": number,
                "error": {"type": ["string", "null"]},
            },
            "required": [
                "at",
                "eventId",
                "eventType",
                "gameId",
                "attempt",
                "outcome",
                "httpStatus",
                "latencyMs",
                "error",
            ],
        },
        "WebhookDeliveries": {
            "type": "object",
            "properties": {"deliveries": {"type": "array", "items": _ref("WebhookDelivery")}},
            "required": ["deliveries"],
        },
        "WebhookFailedEvent": {
            "type": "object",
            "properties": {
                "eventId": string,
                "eventType": {"oneOf": [_ref("WebhookEventType"), {"type": "null"}]},
                "gameId": {"type": ["string", "null"]},
                "failedAt": {**number, "description": "When delivery gave up (epoch s)."},
            },
            "required": ["eventId", "eventType", "gameId", "failedAt"],
        },
        "WebhookFailedEvents": {
            "type": "object",
            "properties": {"failedEvents": {"type": "array", "items": _ref("WebhookFailedEvent")}},
            "required": ["failedEvents"],
        },
        "WebhookRedelivery": {
            "type": "object",
            "properties": {"queued": {"type": "boolean"}},
            "required": ["queued"],
        },
        "WebhookTestSent": {
            "type": "object",
            "properties": {"eventId": {**string, "description": "The test event's Webhook-Id."}},
            "required": ["eventId"],
        },
        "WebhookListedEvent": {
            "type": "object",
            "properties": {
                "id": {**string, "description": "The Webhook-Id."},
                "type": _ref("WebhookEventType"),
                "gameId": {"type": ["string", "null"]},
                "createdAt": {**string, "format": "date-time", "description": "`timestamp`."},
                "cursor": string,
                "payload": {
                    "type": "object",
                    "description": "The body as POSTed (schema/webhooks/<type>.json).",
                },
            },
            "required": ["id", "type", "gameId", "createdAt", "cursor", "payload"],
        },
        "WebhookEventPage": {
            "type": "object",
            "properties": {
                "events": {"type": "array", "items": _ref("WebhookListedEvent")},
                "endCursor": {
                    "type": ["string", "null"],
                    "description": "Pass as `after` for the next page.",
                },
                "hasMore": {"type": "boolean"},
            },
            "required": ["events", "endCursor", "hasMore"],
        },
    }
