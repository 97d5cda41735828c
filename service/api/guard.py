"""The outermost HTTP middleware: body size limit, rate limits, in-flight gauge, latency.

Everything here happens before any parsing, so hostile traffic is refused cheaply.
"""

from __future__ import annotations

import math
import time

import msgspec
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service import metrics
from service.api.ratelimit import RateLimiter
from service.api.rest import Problem, problem_response
from service.api.tables import natural

OPEN_PATHS = {"/healthz", "/readyz", "/metrics", "/openapi.json"}


class BodyTooLarge(Exception):
    pass


def refusal(path: str, status: int, code: str, message: str, headers: dict[str, str]) -> Response:
    """A refusal shaped for the caller: problem details on REST, a GraphQL error otherwise."""
    if path.startswith("/v1/"):
        response = problem_response(Problem(code, message))
        response.headers.update(headers)
        return response
    body = {"errors": [{"message": message, "extensions": {"code": code}}]}
    return Response(msgspec.json.encode(body), status, headers, media_type="application/json")


class Guard:
    def __init__(self, app: ASGIApp, max_body_bytes: int, limiter: RateLimiter) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        refused = self._refuse_early(scope, path)
        if refused is not None:
            await refused(scope, receive, send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_body_bytes:
                raise BodyTooLarge
            return message

        metrics.REQUESTS_IN_FLIGHT.inc()
        started = time.perf_counter()
        try:
            await self.app(scope, limited_receive, send)
        except BodyTooLarge:
            await self._too_large(path)(scope, receive, send)
        finally:
            metrics.REQUESTS_IN_FLIGHT.dec()
            operation = scope.get("rules.operation") or (path if path in OPEN_PATHS else "other")
            metrics.REQUEST_SECONDS.labels(operation).observe(time.perf_counter() - started)

    def _refuse_early(self, scope: Scope, path: str) -> Response | None:
        headers = Headers(scope=scope)
        length = headers.get("content-length")
        size = natural(length) if length is not None else 0
        if size is None or size > self.max_body_bytes:
            return self._too_large(path)
        if self.limiter.enabled and path not in OPEN_PATHS:
            scheme, _, token = headers.get("authorization", "").partition(" ")
            client = scope.get("client")
            wait = self.limiter.admit(
                {
                    "token": token.strip() if scheme.lower() == "bearer" else None,
                    "address": client[0] if client else None,
                }
            )
            if wait is not None:
                metrics.RATE_LIMITED.inc()
                return refusal(
                    path,
                    429,
                    "RATE_LIMITED",
                    "too many requests; retry after the time in Retry-After",
                    {"retry-after": str(math.ceil(wait))},
                )
        return None

    def _too_large(self, path: str) -> Response:
        return refusal(
            path, 413, "PAYLOAD_TOO_LARGE", f"request body over {self.max_body_bytes} bytes", {}
        )
