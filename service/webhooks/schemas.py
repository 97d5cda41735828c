"""The JSON Schema of each webhook event's body (schema/webhooks/<type>.json, written by
`make schema` with the other contracts): the Standard Webhooks envelope (type, timestamp,
data) around the payload Struct of service/webhooks/events.py.

The schemas allow added fields (no `additionalProperties: false`): a receiver that validates
with them keeps accepting events after an additive release (docs/webhooks.md,
"Compatibility"). `kind` is an enum of the game kinds, which may grow too."""

from __future__ import annotations

from typing import Any

import msgspec

from service.games import games
from service.webhooks.events import PAYLOADS


def event_schema(event_type: str) -> dict[str, Any]:
    (payload,), components = msgspec.json.schema_components([PAYLOADS[event_type]])
    for component in components.values():
        component.pop("additionalProperties", None)
        if "kind" in component.get("properties", {}):
            component["properties"]["kind"] = {
                "enum": sorted(games()),
                "description": "The game's kind (GameKind); new kinds may be added.",
            }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": event_type,
        "description": "The body of a webhook of this type (docs/webhooks.md).",
        "type": "object",
        "properties": {
            "type": {"const": event_type},
            "timestamp": {"type": "string", "format": "date-time"},
            "data": payload,
        },
        "required": ["type", "timestamp", "data"],
        "$defs": components,
    }
