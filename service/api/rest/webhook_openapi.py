"""The components of the webhook routes (webhooks.py, webhook_events.py): endpoints, their
delivery log and the tenant's events, as openapi.openapi() publishes them."""

from __future__ import annotations

from typing import Any

from service.api.rest.operation import ref
from service.webhooks.endpoints import MAX_DESCRIPTION
from service.webhooks.model import (
    ALL_TYPES,
    ENDPOINT_STATUSES,
    OUTCOMES,
)
from service.webhooks.urls import MAX_URL

Schema = dict[str, Any]


def schemas() -> Schema:
    return {**_endpoints(), **_endpoint_bodies(), **_deliveries(), **_events()}


def _endpoints() -> Schema:
    string, number = {"type": "string"}, {"type": "number"}
    nullable = {"type": ["number", "null"]}
    events = {"type": "array", "items": ref("WebhookEventType")}
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
                "endpoint": ref("WebhookEndpoint"),
                "secret": {**string, "description": "whsec_...: shown in this answer only."},
            },
            "required": ["endpoint", "secret"],
        },
        "WebhookEndpointList": {
            "type": "object",
            "properties": {"endpoints": {"type": "array", "items": ref("WebhookEndpoint")}},
            "required": ["endpoints"],
        },
    }


def _endpoint_bodies() -> Schema:
    events = {"type": "array", "items": ref("WebhookEventType")}
    url = {
        "type": "string",
        "maxLength": MAX_URL,
        "description": "https (http outside production) to a public address.",
    }
    description = {"type": ["string", "null"], "maxLength": MAX_DESCRIPTION}
    return {
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
    }


def _deliveries() -> Schema:
    string, integer, number = {"type": "string"}, {"type": "integer"}, {"type": "number"}
    return {
        "WebhookDelivery": {
            "type": "object",
            "description": "One attempt to deliver an event to the endpoint.",
            "properties": {
                "at": {**number, "description": "When it started (epoch s)."},
                "eventId": {**string, "description": "The Webhook-Id."},
                "eventType": ref("WebhookEventType"),
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
            "properties": {"deliveries": {"type": "array", "items": ref("WebhookDelivery")}},
            "required": ["deliveries"],
        },
    }


def _events() -> Schema:
    string, number = {"type": "string"}, {"type": "number"}
    return {
        "WebhookFailedEvent": {
            "type": "object",
            "properties": {
                "eventId": string,
                "eventType": {"oneOf": [ref("WebhookEventType"), {"type": "null"}]},
                "gameId": {"type": ["string", "null"]},
                "failedAt": {**number, "description": "When delivery gave up (epoch s)."},
            },
            "required": ["eventId", "eventType", "gameId", "failedAt"],
        },
        "WebhookFailedEvents": {
            "type": "object",
            "properties": {"failedEvents": {"type": "array", "items": ref("WebhookFailedEvent")}},
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
                "type": ref("WebhookEventType"),
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
                "events": {"type": "array", "items": ref("WebhookListedEvent")},
                "endCursor": {
                    "type": ["string", "null"],
                    "description": "Pass as `after` for the next page.",
                },
                "hasMore": {"type": "boolean"},
            },
            "required": ["events", "endCursor", "hasMore"],
        },
    }
