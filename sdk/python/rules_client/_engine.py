"""The generated client with the service's answers turned into typed errors (errors.py).

A GraphQL error (its `extensions.code`, `retryAfter` and localized `message`), an HTTP
refusal before GraphQL (429 with Retry-After, 413, 400: the same error shape) and a service
out of reach (httpx's transport errors) all become one `RulesError`; a subscription's error
message and close code too (`from_graphql`, `from_close`).
"""

from __future__ import annotations

from typing import Any

import httpx
from pydantic import ValidationError

from ._generated import Message, RulesClient
from ._generated.async_base_client import Response
from ._generated.exceptions import GraphQLClientError
from .errors import ErrorCode, RulesError, UnavailableError, error

# HTTP statuses that say "not now" when no GraphQL error explains them (a proxy's 502-504)
STATUS_CODES = {429: "RATE_LIMITED", 502: "UNAVAILABLE", 503: "UNAVAILABLE", 504: "UNAVAILABLE"}
# close codes of a subscription's socket (docs/api.md, "Live updates")
CLOSE_CODES = {4400: "BAD_REQUEST", 4413: "SLOW_CONSUMER", 4429: "TOO_MANY_SOCKETS"}


class Engine(RulesClient):
    async def execute(
        self,
        query: str,
        operation_name: str | None = None,
        variables: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> Response:
        try:
            return await super().execute(query, operation_name, variables, **kwargs)
        except httpx.TransportError as exc:
            raise unreachable(exc) from exc

    def get_data(self, response: Response) -> dict[str, Any]:
        headers = getattr(response, "headers", {})
        retry_after = seconds(headers.get("retry-after"))
        try:
            body = response.json()
        except ValueError:
            body = None
        errors = body.get("errors") if isinstance(body, dict) else None
        if errors:
            raise from_graphql(errors[0], retry_after)
        if not 200 <= response.status_code <= 299:
            raw = STATUS_CODES.get(response.status_code, "INTERNAL_SERVER_ERROR")
            raise error(raw, f"HTTP status {response.status_code}", retry_after=retry_after)
        try:
            return super().get_data(response)
        except GraphQLClientError as exc:  # a 2xx answer that is no GraphQL response
            raise error("INTERNAL_SERVER_ERROR", str(exc)) from exc


def unreachable(exc: BaseException) -> UnavailableError:
    return UnavailableError(ErrorCode.UNAVAILABLE, f"the service cannot be reached: {exc!r}")


def never_sent(exc: RulesError) -> bool:
    """Whether the request cannot have reached the service (no connection was made)."""
    return isinstance(exc.__cause__, httpx.ConnectError | httpx.ConnectTimeout)


def from_graphql(found: dict[str, Any], retry_after: float | None = None) -> RulesError:
    """The typed error of one GraphQL error object."""
    extensions = found.get("extensions") or {}
    said = None
    if isinstance(extensions.get("message"), dict):
        try:
            said = Message.model_validate(extensions["message"])
        except ValidationError:
            said = None
    return error(
        extensions.get("code"),
        str(found.get("message", "")),
        retry_after=seconds(extensions.get("retryAfter")) or retry_after,
        said=said,
        extensions=extensions,
    )


def from_close(code: int | None, reason: str | None) -> RulesError:
    """The typed error of a subscription's socket closed before the server completed it."""
    named, _, _ = (reason or "").partition(":")
    if named in ErrorCode.__members__:
        return error(named, reason or named)
    raw = CLOSE_CODES.get(code or 0, "UNAVAILABLE")
    return error(raw, f"the socket closed ({code} {reason or ''})".strip())


def seconds(value: object) -> float | None:
    try:
        return float(value) if value is not None else None  # type: ignore[arg-type]
    except ValueError:
        return None
