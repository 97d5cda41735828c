"""The OpenAPI paths and components of takebacks (issue 32, service/core/takebacks.py),
joined into REST's document by openapi.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.core.takebacks import POLICIES, STEPS

Builder = Callable[..., dict[str, Any]]

REFUSALS = (
    "NOT_FOUND",
    "UNAUTHORIZED",
    "FORBIDDEN",
    "GAME_OVER",
    "STALE_VERSION",
    "IDEMPOTENCY_KEY_REUSED",
    "TAKEBACK_NOT_ALLOWED",
)


def paths(
    ok: Builder, body: Builder, problems: Builder, leading: list[dict[str, Any]]
) -> dict[str, Any]:
    """The takeback routes; `leading` are the game routes' parameters (game id, acting for a
    seat, the answer's language and messages)."""
    parameters = [
        *leading,
        {
            "name": "If-Match",
            "in": "header",
            "schema": {"type": "string"},
            "description": 'The expected version, e.g. "12" (or an ETag of it); else 412.',
        },
        {
            "name": "Idempotency-Key",
            "in": "header",
            "schema": {"type": "string", "maxLength": 200},
            "description": "A retry with the same key returns the first answer, as for moves.",
        },
    ]
    security: list[dict[str, list[str]]] = [{"seatToken": []}, {"apiKey": []}]
    applied = {"$ref": "#/components/schemas/MoveApplied"}
    return {
        "/v1/games/{gameId}/takeback": {
            "post": {
                "operationId": "requestTakeback",
                "summary": "The bearer's seat takes back its last decision: the game goes back "
                "to the version just before it, as a new version. Alone while the game's "
                "`takebacks` policy allows it; under WITH_CONSENT beyond that it becomes the "
                "game's `takebackRequest` (409 TAKEBACK_NOT_ALLOWED otherwise).",
                "security": security,
                "parameters": parameters,
                "responses": {
                    **ok(applied, "taken back, or asked (or an idempotent replay)"),
                    **problems(*REFUSALS),
                },
            }
        },
        "/v1/games/{gameId}/takeback/answer": {
            "post": {
                "operationId": "answerTakeback",
                "summary": "The bearer's seat accepts or declines the game's `takebackRequest`; "
                "the last acceptance takes it back.",
                "security": security,
                "parameters": parameters,
                "requestBody": body({"$ref": "#/components/schemas/TakebackAnswer"}),
                "responses": {
                    **ok(applied, "answered (or an idempotent replay)"),
                    **problems(*REFUSALS),
                },
            }
        },
    }


def schemas() -> dict[str, Any]:
    integers = {"type": "array", "items": {"type": "integer"}}
    return {
        "TakebackAnswer": {
            "type": "object",
            "properties": {"accept": {"type": "boolean"}},
            "required": ["accept"],
            "additionalProperties": False,
        },
        "TakebackPolicy": {
            "enum": list(POLICIES),
            "description": "NONE: no takebacks; OWN_DECISIONS: a seat its own last decision "
            "while nothing hidden was revealed, nothing random happened and no other seat "
            "decided since; WITH_CONSENT: that, and beyond it once every other human seat "
            "accepts (bots accept).",
        },
        "TakebackRequest": {
            "type": "object",
            "description": "A takeback waiting for answers; `expires` in epoch seconds (any "
            "decision ends it sooner).",
            "properties": {
                "seat": {"type": "integer"},
                "toVersion": {"type": "integer"},
                "acceptedBy": integers,
                "waitingFor": integers,
                "expires": {"type": "number"},
            },
            "required": ["seat", "toVersion", "acceptedBy", "waitingFor", "expires"],
        },
        "TakebackNote": {
            "type": "object",
            "description": "A history entry's takeback: its step, who asked, who agreed.",
            "properties": {
                "step": {"enum": list(STEPS)},
                "toVersion": {"type": "integer"},
                "askedBy": {"type": "integer"},
                "agreedBy": integers,
            },
            "required": ["step", "toVersion", "askedBy", "agreedBy"],
        },
    }
