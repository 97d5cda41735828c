"""A REST route as one declaration: its path, method and handler with the OpenAPI operation
that documents it, and the fragments operations share (parameters, answers, problems)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from service.api.edge.problems import STATUS

Schema = dict[str, Any]
Security = list[dict[str, list[str]]]
Handler = Callable[[Any, Request], Awaitable[Response]]

JSON = "application/json"
EVERY_ROUTE = ("BAD_REQUEST", "PAYLOAD_TOO_LARGE", "RATE_LIMITED", "UNAVAILABLE")
GAME_ROUTE = ("NOT_FOUND", "UNREADABLE_RECORD")  # every route that reads one game's record
ACTING: Security = [{"seatToken": []}, {"apiKey": []}]  # a seat's token, or its tenant's key
TENANT: Security = [{}, {"apiKey": []}]  # the tenant's key when the server sets RULES_API_KEYS
READER: Security = [{}, *ACTING]  # a spectator too


ONE_GAME = "/v1/games/{game_id}"


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def struct_schema(type_: type[msgspec.Struct]) -> Schema:
    """A request body's schema as msgspec derives it, untitled as the hand-written ones."""
    (_,), defs = msgspec.json.schema_components([type_])
    return {key: value for key, value in defs[type_.__name__].items() if key != "title"}


def body(schema: Schema) -> Schema:
    return {"required": True, "content": {JSON: {"schema": schema}}}


def ok(schema: Schema, description: str, status: str = "200") -> Schema:
    return {status: {"description": description, "content": {JSON: {"schema": schema}}}}


RETRY_AFTER: Schema = {
    "description": "Seconds to wait before retrying.",
    "schema": {"type": "integer"},
}


def problems(*codes: str) -> Schema:
    """Every status the route can answer with: its own codes and those of every route
    (bad request, body too large, rate limited, store unavailable)."""
    statuses = sorted({STATUS[c] for c in (*codes, *EVERY_ROUTE)})
    return {
        str(s): {
            "description": ", ".join(sorted(c for c, v in STATUS.items() if v == s)),
            "content": {"application/problem+json": {"schema": ref("Problem")}},
            **({"headers": {"Retry-After": RETRY_AFTER}} if s in (429, 503) else {}),
        }
        for s in statuses
    }


ETAG: Schema = {
    "description": 'The version, a dot and a digest of who reads it, e.g. "12.5f0c9e1b2a3d4c6e": '
    "another seat's tag is never current for you. If-Match takes it (or the bare version).",
    "schema": {"type": "string"},
}


def tagged_responses(schema: Schema, description: str) -> Schema:
    """A GET's 200 with its ETag, and the 304 that answers a current If-None-Match."""
    return {
        "200": {**ok(schema, description)["200"], "headers": {"ETag": ETAG}},
        "304": {"description": "not modified", "headers": {"ETag": ETAG}},
    }


def query(name: str, schema: Schema) -> Schema:
    return {"name": name, "in": "query", "required": False, "schema": schema}


LANGUAGE: Schema = {
    "name": "language",
    "in": "query",
    "schema": {"type": "string"},
    "description": "The language of the answer's messages (`labelMessage`, a problem's "
    "`message`), e.g. `en-XA`; else Accept-Language; English when neither is known "
    "(docs/translating.md).",
}
WITH_MESSAGES: Schema = {
    "name": "messages",
    "in": "query",
    "schema": {"type": "boolean", "default": True},
    "description": "false leaves the message fields out (`labelMessage`, `detailMessages`): "
    "less CPU and fewer bytes for a client that shows the English `label` and `detail` "
    "only (docs/api.md section 15). Anything but true or false: 400 BAD_REQUEST.",
}
NONE_MATCH: Schema = {
    "name": "If-None-Match",
    "in": "header",
    "schema": {"type": "string"},
    "description": "An ETag the client holds: 304 while it is current.",
}
GAME_ID: Schema = {"name": "gameId", "in": "path", "required": True, "schema": {"type": "string"}}
ACT_AS: Schema = {
    "name": "X-Act-As-Seat",
    "in": "header",
    "schema": {"type": "integer", "minimum": 0},
    "description": "Act as this seat: with the game's tenant's X-API-Key, for a human "
    "seat of its own game (another tenant's key: 404 as for no such game; a bot's seat: "
    "403); with a seat token, only its own seat (403 otherwise).",
}
READ_PARAMETERS: list[Schema] = [
    GAME_ID,
    ACT_AS,
    NONE_MATCH,
    LANGUAGE,
    WITH_MESSAGES,
]  # a game's GETs


@dataclass(frozen=True)
class Operation:
    """One route's OpenAPI operation. `layout` keeps the published document's key order:
    "parameters" puts parameters and security before the operation's id."""

    operation_id: str
    summary: str
    security: Security
    responses: Schema
    parameters: list[Schema] | None = None
    request_body: Schema | None = None
    layout: Literal["operation", "parameters"] = "operation"

    def document(self) -> Schema:
        named = {"operationId": self.operation_id, "summary": self.summary}
        given: Schema = {} if self.parameters is None else {"parameters": self.parameters}
        if self.layout == "operation":
            head: Schema = {**named, "security": self.security, **given}
        else:
            head = {**given, "security": self.security, **named}
        if self.request_body is not None:
            head["requestBody"] = self.request_body
        responses = self.responses
        if ACT_AS in (self.parameters or ()) and "422" not in responses:
            # X-Act-As-Seat may name a seat the game lacks: 422 BAD_USER_INPUT
            responses = dict(
                sorted({**responses, "422": problems("BAD_USER_INPUT")["422"]}.items())
            )
        return {**head, "responses": responses}


@dataclass(frozen=True)
class RestRoute:
    """A route and its documentation: neither exists without the other. `handler` takes
    what its module's routes are handed (a Rest, or the webhooks' own) and the request."""

    path: str
    method: str
    handler: Handler
    operation: Operation = field(repr=False)

    @property
    def documented_path(self) -> str:
        """The path as the document spells it: `{game_id}` is `{gameId}`."""
        return re.sub(r"\{(\w+)\}", lambda m: "{" + _camel(m.group(1)) + "}", self.path)


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part.title() for part in rest)
