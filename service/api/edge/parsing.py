"""Strict parsing of every value a client sends: numbers, JSON bodies, seat tokens.

Each parser bounds its input before converting it, so a hostile value costs a typed refusal,
never a 500: Python refuses int() of more than 4,300 digits, and msgspec and graphql-core
recurse once per nesting level.
"""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import HTTPConnection
from starlette.types import Scope

MAX_DIGITS = 18  # every version, seat and count fits; int64 still holds it


class BadInput(Exception):
    """A value that is not what the route accepts; the message says what is expected."""


def natural(text: str) -> int | None:
    """The whole number an ASCII digit string of at most MAX_DIGITS digits spells, else None
    (str.isdigit() alone also admits '²')."""
    if len(text) > MAX_DIGITS or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def within_depth(value: object, limit: int) -> bool:
    """Whether decoded JSON nests at most `limit` arrays and objects deep (no recursion)."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children: Any
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth >= limit:
            return False
        stack.extend((child, depth + 1) for child in children)
    return True


def decode_json(data: bytes | str, max_depth: int) -> object:
    """JSON that parses and nests at most `max_depth` deep; BadInput otherwise."""
    try:
        value = msgspec.json.decode(data)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise BadInput(f"the body is not valid JSON: {_reason(exc)}") from None
    # each level opens with a bracket, so a text with few brackets needs no walk
    if _brackets(data) > max_depth and not within_depth(value, max_depth):
        raise BadInput(f"JSON nests deeper than {max_depth} levels")
    return value


def _brackets(data: bytes | str) -> int:
    if isinstance(data, str):
        return data.count("[") + data.count("{")
    return data.count(b"[") + data.count(b"{")


def header(scope: Scope, name: bytes) -> str | None:
    """The first value of the header `name` (lower case, as ASGI servers give names), as
    Starlette's Headers reads it, without building Headers (a third of the cost)."""
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _reason(exc: Exception) -> str:
    return "nested too deep" if isinstance(exc, RecursionError) else str(exc)


def bearer_token(request: HTTPConnection) -> str | None:
    """The token of `Authorization: Bearer <token>`, for REST, GraphQL and websockets alike."""
    return credential(request.headers.get("authorization"))


def credential(authorization: str | None) -> str | None:
    """The token an Authorization value carries: None when there is none (a spectator), ""
    for any other scheme or an empty one, which no seat accepts, so a bad credential is
    refused and never read as a spectator (docs/security.md)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""
