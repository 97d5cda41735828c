"""Takebacks: a seat takes back its last decision, or asks and the other seats answer
(service/core/takebacks/policy.py has the policy)."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from service.api.rest.http import Rest, etag, if_match, json_response, read_body, shape, wanted
from service.api.rest.operation import (
    ACT_AS,
    ACTING,
    GAME_ID,
    LANGUAGE,
    WITH_MESSAGES,
    Operation,
    RestRoute,
    Schema,
    body,
    ok,
    problems,
    ref,
    struct_schema,
)
from service.api.rest.rendering import game_json
from service.core import Applied
from service.core.takebacks.policy import POLICIES, STEPS


class AnswerBody(msgspec.Struct, forbid_unknown_fields=True):
    accept: bool


def taken_json(applied: Applied, lang: str, messages: bool) -> Response:
    """A takeback's answer, as applyMove's: the game, replayed or not, and its ETag."""
    loaded = applied.game
    headers = {"etag": etag(loaded, None, *shape(lang, messages))}
    if applied.replayed:
        headers["idempotent-replayed"] = "true"
    body = {"game": game_json(loaded, None, lang, messages), "replayed": applied.replayed}
    return json_response(body, headers=headers)


async def request_takeback(rest: Rest, request: Request) -> Response:
    lang, messages = wanted(request)
    applied = await rest.service.request_takeback(
        request.path_params["game_id"],
        rest.caller(request),
        if_match(request),
        request.headers.get("idempotency-key"),
    )
    return taken_json(applied, lang, messages)


async def answer_takeback(rest: Rest, request: Request) -> Response:
    body = await read_body(request, AnswerBody, rest.max_depth)
    lang, messages = wanted(request)
    applied = await rest.service.answer_takeback(
        request.path_params["game_id"],
        rest.caller(request),
        body.accept,
        if_match(request),
        request.headers.get("idempotency-key"),
    )
    return taken_json(applied, lang, messages)


REFUSALS = (
    "NOT_FOUND",
    "UNAUTHORIZED",
    "FORBIDDEN",
    "GAME_OVER",
    "STALE_VERSION",
    "IDEMPOTENCY_KEY_REUSED",
    "TAKEBACK_NOT_ALLOWED",
)
PARAMETERS: list[Schema] = [
    GAME_ID,
    ACT_AS,
    LANGUAGE,
    WITH_MESSAGES,
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

REQUEST = RestRoute(
    "/v1/games/{game_id}/takeback",
    "POST",
    request_takeback,
    Operation(
        "requestTakeback",
        "The bearer's seat takes back its last decision: the game goes back to the version "
        "just before it, as a new version. Alone while the game's `takebacks` policy allows "
        "it; under WITH_CONSENT beyond that it becomes the game's `takebackRequest` (409 "
        "TAKEBACK_NOT_ALLOWED otherwise).",
        ACTING,
        {
            **ok(ref("MoveApplied"), "taken back, or asked (or an idempotent replay)"),
            **problems(*REFUSALS),
        },
        parameters=PARAMETERS,
    ),
)
ANSWER = RestRoute(
    "/v1/games/{game_id}/takeback/answer",
    "POST",
    answer_takeback,
    Operation(
        "answerTakeback",
        "The bearer's seat accepts or declines the game's `takebackRequest`; the last "
        "acceptance takes it back.",
        ACTING,
        {**ok(ref("MoveApplied"), "answered (or an idempotent replay)"), **problems(*REFUSALS)},
        parameters=PARAMETERS,
        request_body=body(ref("TakebackAnswer")),
    ),
)


def schemas() -> dict[str, Any]:
    integers = {"type": "array", "items": {"type": "integer"}}
    return {
        "TakebackAnswer": struct_schema(AnswerBody),
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
