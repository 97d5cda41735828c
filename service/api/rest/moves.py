"""A seat's decisions: its legal moves now, applying one, a dry run, and a suggestion."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from service.api.rest.components import INTEGER, STRATEGY_NAMES, STRING
from service.api.rest.http import (
    Rest,
    etag,
    if_match,
    json_response,
    language_of,
    messages_of,
    read_body,
    shape,
    tagged,
    wanted,
)
from service.api.rest.operation import (
    ACT_AS,
    ACTING,
    GAME_ID,
    GAME_ROUTE,
    LANGUAGE,
    ONE_GAME,
    READ_PARAMETERS,
    READER,
    WITH_MESSAGES,
    Operation,
    RestRoute,
    body,
    ok,
    problems,
    ref,
    tagged_responses,
)
from service.api.rest.rendering import game_json, legal_moves_json, validation_json
from service.refusals import Code


class MoveBody(msgspec.Struct, forbid_unknown_fields=True):
    move: Any


class SuggestBody(msgspec.Struct, forbid_unknown_fields=True, rename="camel"):
    strategy: str = "SEARCH"
    budget_ms: int | None = None
    iterations: int | None = None
    seed: int | None = None


async def legal_moves(rest: Rest, request: Request) -> Response:
    messages = messages_of(request)
    loaded = await rest.read(request)
    lang = language_of(request)

    def body() -> dict[str, Any]:
        moves = legal_moves_json(loaded, lang, messages)
        return {"version": loaded.record.version, "legalMoves": moves}

    return tagged(request, etag(loaded, None, "legal-moves", *shape(lang, messages)), body)


async def apply_move(rest: Rest, request: Request) -> Response:
    body = await read_body(request, MoveBody, rest.max_depth)
    lang, messages = wanted(request)
    applied = await rest.service.apply(
        request.path_params["game_id"],
        rest.caller(request),
        body.move,
        if_match(request),
        request.headers.get("idempotency-key"),
    )
    loaded = applied.game
    headers = {"etag": etag(loaded, None, *shape(lang, messages))}
    if applied.replayed:
        headers["idempotent-replayed"] = "true"
    if "return=minimal" in request.headers.get("prefer", ""):  # RFC 7240
        headers["preference-applied"] = "return=minimal"
        minimal = {"version": loaded.record.version, "status": loaded.status()}
        body = {"game": {**minimal, "toAct": loaded.to_act}, "replayed": applied.replayed}
        return json_response(body, headers=headers)
    game = game_json(loaded, None, lang, messages)
    return json_response({"game": game, "replayed": applied.replayed}, headers=headers)


async def validate_move(rest: Rest, request: Request) -> Response:
    body = await read_body(request, MoveBody, rest.max_depth)
    rejected = await rest.service.validate(
        request.path_params["game_id"], rest.caller(request), body.move
    )
    if rejected is not None and rejected.code in {Code.NOT_FOUND, Code.UNAUTHORIZED}:
        raise rejected
    return json_response(validation_json(rejected, language_of(request)))


async def suggest_move(rest: Rest, request: Request) -> Response:
    body = await read_body(request, SuggestBody, rest.max_depth)
    seat, move, label = await rest.service.suggest(
        request.path_params["game_id"],
        rest.caller(request),
        body.strategy,
        body.budget_ms,
        body.iterations,
        body.seed,
    )
    return json_response({"seat": seat, "strategy": body.strategy, "move": move, "label": label})


LEGAL = RestRoute(
    f"{ONE_GAME}/legal-moves",
    "GET",
    legal_moves,
    Operation(
        "getLegalMoves",
        "The bearer seat's legal decisions now.",
        READER,
        {
            **tagged_responses(ref("LegalMoves"), "legal moves"),
            **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN"),
        },
        parameters=READ_PARAMETERS,
        layout="parameters",
    ),
)
APPLY = RestRoute(
    f"{ONE_GAME}/moves",
    "POST",
    apply_move,
    Operation(
        "applyMove",
        "Apply one decision as the bearer's seat (or as the seat the tenant acts for: "
        "X-Act-As-Seat).",
        ACTING,
        {
            **ok(ref("MoveApplied"), "applied (or an idempotent replay)"),
            **problems(
                *GAME_ROUTE,
                "UNAUTHORIZED",
                "FORBIDDEN",
                "NOT_YOUR_TURN",
                "STALE_VERSION",
                "ILLEGAL_MOVE",
                "IDEMPOTENCY_KEY_REUSED",
            ),
        },
        parameters=[
            GAME_ID,
            LANGUAGE,
            WITH_MESSAGES,
            ACT_AS,
            {
                "name": "If-Match",
                "in": "header",
                "schema": {"type": "string"},
                "description": 'The expected version, e.g. "12" (or an ETag of it, e.g. '
                '"12.5f0c9e1b2a3d4c6e"); else 412.',
            },
            {
                "name": "Prefer",
                "in": "header",
                "schema": {"type": "string"},
                "description": "return=minimal: the answer's game holds only version, status "
                "and toAct (RFC 7240).",
            },
            {
                "name": "Idempotency-Key",
                "in": "header",
                "schema": {"type": "string", "maxLength": 200},
                "description": "A retry of the same request with the same key returns the "
                "first answer; another request with it is refused (422 IDEMPOTENCY_KEY_REUSED).",
            },
        ],
        request_body=body(ref("MoveBody")),
    ),
)
VALIDATE = RestRoute(
    f"{ONE_GAME}/validate",
    "POST",
    validate_move,
    Operation(
        "validateMove",
        "A dry run of applyMove: nothing is written.",
        READER,
        {
            **ok(ref("Validation"), "the verdict"),
            **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN"),
        },
        parameters=[GAME_ID, ACT_AS],
        request_body=body(ref("CandidateBody")),
        layout="parameters",
    ),
)
SUGGEST = RestRoute(
    f"{ONE_GAME}/suggest",
    "POST",
    suggest_move,
    Operation(
        "suggestMove",
        "A hint for the bearer's seat: a legal move chosen by a strategy.",
        ACTING,
        {
            **ok(ref("Suggestion"), "the suggestion"),
            **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN", "NOT_YOUR_TURN", "MALFORMED_MOVE"),
        },
        parameters=[GAME_ID, ACT_AS],
        request_body=body(ref("SuggestBody")),
    ),
)


def schemas() -> dict[str, Any]:
    """The bodies the decision routes read, and a suggestion's answer."""
    return {
        "MoveBody": {
            "type": "object",
            "properties": {"move": ref("Move")},
            "required": ["move"],
            "additionalProperties": False,
        },
        "SuggestBody": {
            "type": "object",
            "properties": {
                "strategy": {"enum": STRATEGY_NAMES},
                "budgetMs": {"type": ["integer", "null"]},
                "iterations": {"type": ["integer", "null"]},
                "seed": {"type": ["integer", "null"]},
            },
            "additionalProperties": False,
        },
        "Suggestion": {
            "type": "object",
            "properties": {
                "seat": INTEGER,
                "strategy": {"enum": STRATEGY_NAMES},
                "move": ref("Move"),
                "label": STRING,
            },
            "required": ["seat", "strategy", "move", "label"],
        },
        "CandidateBody": {
            "type": "object",
            "properties": {"move": {"description": "Any JSON: validate judges any candidate."}},
            "required": ["move"],
            "additionalProperties": False,
        },
    }
