"""Refusals as the caller expects them: RFC 9457 problem details on REST and every route
outside /graphql, a GraphQL error with `extensions.code` on /graphql. The HTTP status and
title of each code are here, once, for both protocols' refusals at the edge (size, rate,
routing) and for REST's answers."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import msgspec
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection
from starlette.responses import Response

from service.api.edge.localized import code_message, message_json, refusal_message
from service.core.access.keys import KeyNeeded
from service.engine.texts import ENGLISH, Message
from service.refusals import Code, Refused

# Every code a refusal outside GraphQL may carry: its HTTP status and its title.
PROBLEMS = {
    "NOT_FOUND": (404, "No such game"),
    "UNAUTHORIZED": (401, "Not a seat of this game"),
    "FORBIDDEN": (403, "Not allowed for this caller"),
    "NOT_YOUR_TURN": (409, "Not your turn"),
    "GAME_OVER": (409, "The game is over"),
    "STALE_VERSION": (412, "The game has moved on"),
    "ILLEGAL_MOVE": (422, "Illegal move"),
    "MALFORMED_MOVE": (422, "Malformed move"),
    "BAD_USER_INPUT": (422, "Invalid input"),
    "IDEMPOTENCY_KEY_REUSED": (422, "Idempotency key reused with another request"),
    "BAD_REQUEST": (400, "Bad request"),
    "UNAVAILABLE": (503, "Store unavailable"),
    "PAYLOAD_TOO_LARGE": (413, "Request too large"),
    "RATE_LIMITED": (429, "Too many requests"),
    "TOO_MANY_SUBSCRIPTIONS": (429, "Too many live subscriptions"),
    "UNKNOWN_ROUTE": (404, "No such route"),
    "METHOD_NOT_ALLOWED": (405, "Method not allowed"),
    "HINTS_BUSY": (503, "Every hint process is busy"),
    "HINT_TIMEOUT": (503, "The hint took too long"),
    "UNREADABLE_RECORD": (500, "The game cannot be read"),
    "UPGRADE_IN_PROGRESS": (503, "The game is for a newer release"),
    "RULES_CHANGED": (409, "The game's rules are retired"),
    "TAKEBACK_NOT_ALLOWED": (409, "Takeback not allowed"),
    "GAME_NOT_OVER": (409, "The game is not over yet"),
    "GAME_FULL": (409, "No open seat left"),
    "GAME_NOT_STARTED": (409, "The game has not started"),
    "ALREADY_QUEUED": (409, "Already waiting for another match"),
    "NOT_QUEUED": (409, "Not waiting for a match"),
}
STATUS = {code: status for code, (status, _) in PROBLEMS.items()}
KEY_NEEDED = "API key needed"  # the title of an UNAUTHORIZED that wants X-API-Key, not a token
RETRYABLE = {"UNAVAILABLE", "HINTS_BUSY", "HINT_TIMEOUT", "UPGRADE_IN_PROGRESS"}
# The service's codes (service/refusals.py) REST names otherwise; every other is its own name.
PUBLIC_CODES = {Code.BAD_INPUT: "BAD_USER_INPUT", Code.OUT_OF_RANGE: "BAD_REQUEST"}


class Problem(Exception):
    def __init__(
        self,
        code: str,
        detail: str,
        current_version: int | None = None,
        explained: dict[str, str] | None = None,
        title: str | None = None,
    ) -> None:
        super().__init__(detail)
        self.code, self.detail, self.current_version = code, detail, current_version
        self.explained = explained or {}  # ILLEGAL_MOVE: {"reason": ..., "rule": ...}
        self.title = title or PROBLEMS[code][1]  # routes about other things than games name them
        self.said: Message | None = None  # the engine's message, else the code's
        self.retry_after: float | None = None  # RATE_LIMITED: the Retry-After header


def from_refusal(refused: Refused, title: str | None = None) -> Problem:
    """REST's one translation of the service's refusals; `title` names another subject than
    a game (a webhook endpoint)."""
    explained = (
        {}
        if refused.reason is None or refused.rule is None
        else {"reason": refused.reason, "rule": refused.rule}
    )
    code = PUBLIC_CODES.get(refused.code, refused.code.value)
    if title is None and isinstance(refused, KeyNeeded):
        title = KEY_NEEDED
    problem = Problem(code, refused.message, refused.current_version, explained, title)
    problem.said = refusal_message(refused, code)
    problem.retry_after = refused.retry_after
    return problem


def problem_response(
    problem: Problem, status: int | None = None, language: str = ENGLISH
) -> Response:
    status = status or STATUS[problem.code]
    body: dict[str, Any] = {
        "type": f"https://tree-games.dev/problems/{problem.code.lower().replace('_', '-')}",
        "title": problem.title,
        "status": status,
        "detail": problem.detail,
        "code": problem.code,
    }
    headers = {}
    if problem.current_version is not None:
        body["currentVersion"] = problem.current_version
    body.update(problem.explained)
    body["message"] = message_json(problem.said or code_message(problem.code), language)
    if problem.code == "UNAUTHORIZED":
        headers["www-authenticate"] = "Bearer"
    if problem.code in RETRYABLE:
        headers["retry-after"] = "1"
    if problem.retry_after is not None:
        headers["retry-after"] = str(max(math.ceil(problem.retry_after), 1))
    return Response(
        msgspec.json.encode(body), status, headers, media_type="application/problem+json"
    )


def refusal(
    path: str, status: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> Response:
    """A refusal shaped for the caller: problem details, or a GraphQL error on /graphql."""
    if path != "/graphql":
        response = problem_response(Problem(code, message), status)
        response.headers.update(headers or {})
        return response
    body = {"errors": [{"message": message, "extensions": {"code": code}}]}
    return Response(msgspec.json.encode(body), status, headers, media_type="application/json")


async def unrouted(request: HTTPConnection, exc: Exception) -> Response:
    """Starlette's 404 (no route) and 405 (wrong method), typed like every other refusal."""
    assert isinstance(exc, HTTPException)
    code = "METHOD_NOT_ALLOWED" if exc.status_code == 405 else "UNKNOWN_ROUTE"
    message = f"{request.url.path} does not answer {request.scope.get('method', 'that')}"
    if code == "UNKNOWN_ROUTE":
        message = f"no route {request.url.path}"
    return refusal(request.url.path, exc.status_code, code, message, exc.headers)
