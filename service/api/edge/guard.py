"""The outermost middleware: body size limit, the admission path, in-flight gauge, latency,
security headers (headers.py).

Everything here happens before any parsing, so hostile traffic is refused cheaply. Admission
(rate limits per seat token and per client address) is one function for every way in: each
HTTP request here, each WebSocket upgrade here too, and each operation sent over a socket
(service/api/graphql/sockets.py).
"""

from __future__ import annotations

import functools
import ipaddress
import math
import time
from collections.abc import Mapping

from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from service import metrics
from service.api.edge.caching import Caching
from service.api.edge.headers import headers_for
from service.api.edge.parking import PARKED
from service.api.edge.parsing import credential, header, natural
from service.api.edge.problems import refusal
from service.api.edge.ratelimit import RateLimiter
from service.core.access.keys import seat_token
from service.core.players.tokens import MAX_TOKEN, looks_like_player_token

OPEN_PATHS = {"/healthz", "/readyz", "/metrics", "/openapi.json"}
# Set in the scope by an answer that streams (server-sent events): the request is answered,
# for the in-flight gauge and the latency, when its stream starts; what follows is a live
# subscription's life, not a request's time.
STREAMING = "rules.streaming"
TOO_MANY_SOCKETS_CLOSE = 4429


class BodyTooLarge(Exception):
    pass


class Admission:
    """Rate limits per credential and per address, shared by replicas (ratelimit.py)."""

    def __init__(self, limiter: RateLimiter) -> None:
        self.limiter = limiter

    def admit(self, token: str | None, address: str | None) -> float | None:
        """None if the caller may go on, else the seconds to wait. Only a token in its
        canonical form is a subject (one per credential, a seat token or a player token,
        counted by its hash; anything else is refused later as UNAUTHORIZED and counts against
        its address only)."""
        if not self.limiter.enabled:
            return None
        subject = token if token and _countable(token) else None
        wait = self.limiter.admit({"token": subject, "address": address or None})
        if wait is not None:
            metrics.RATE_LIMITED.inc()
        return wait


def _countable(token: str) -> bool:
    if seat_token(token) is not None:
        return True
    return looks_like_player_token(token) and len(token) <= MAX_TOKEN


class Occupancy:
    """How many of something each client address holds in this process, up to a limit
    (0: no limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held: dict[str, int] = {}

    def take(self, address: str) -> bool:
        held = self.held.get(address, 0)
        if self.limit and held >= self.limit:
            return False
        self.held[address] = held + 1
        return True

    def give(self, address: str) -> None:
        held = self.held.get(address, 0) - 1
        if held > 0:
            self.held[address] = held
        else:
            self.held.pop(address, None)


class Guard:
    def __init__(
        self,
        app: ASGIApp,
        max_body_bytes: int,
        admission: Admission,
        max_sockets: int,
        caching: Caching | None = None,
        larger_bodies: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        # the few routes whose body is a document, not a request (a game record to verify)
        self.larger_bodies = dict(larger_bodies or {})
        self.admission = admission
        self.sockets = Occupancy(max_sockets)  # open WebSockets per client address
        self.caching = caching or Caching(0)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        added = headers_for(path, scope["method"])
        counted = False  # answered(): once, when the answer ends or its stream starts

        def answered() -> None:
            nonlocal counted
            if not counted:
                counted = True
                metrics.IN_FLIGHT.value -= 1
                operation = scope.get("rules.operation") or (
                    path if path in OPEN_PATHS else "other"
                )
                metrics.REQUEST_SECONDS.labels(operation).observe(time.perf_counter() - started)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", ()), *added]
                message["headers"] = self.caching.headers(scope, message["status"], headers)
                if scope.get(STREAMING):
                    answered()
            await send(message)

        refused = self._refuse_early(scope, path)
        if refused is not None:
            await refused(scope, receive, send_with_headers)
            return
        received, limit = 0, self._limit(path)

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit:
                raise BodyTooLarge
            return message

        metrics.IN_FLIGHT.value += 1
        started = time.perf_counter()
        try:
            await self.app(scope, limited_receive, send_with_headers)
        except BodyTooLarge:
            await self._too_large(path)(scope, receive, send_with_headers)
        finally:
            answered()

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A WebSocket upgrade is admitted like a request; an address holds at most
        `max_sockets` open sockets on this process. A refusal accepts and closes at once
        with a code and a reason, which clients see (an HTTP refusal of the upgrade they
        would not)."""
        address = client_address(scope)
        wait = self.admission.admit(credential(header(scope, b"authorization")), address)
        if wait is not None or not self.sockets.take(address):
            socket = WebSocket(scope, receive, send)
            offered = "graphql-transport-ws" in (scope.get("subprotocols") or [])
            await socket.accept("graphql-transport-ws" if offered else None)
            reason = "RATE_LIMITED: too many requests" if wait is not None else ""
            reason = reason or "TOO_MANY_SOCKETS: too many sockets from this address"
            await socket.close(TOO_MANY_SOCKETS_CLOSE, reason)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            parked = scope.get(PARKED)  # the socket outlives this call (edge/parking.py)
            if parked is None:
                self.sockets.give(address)
            else:
                parked.add_done_callback(lambda _: self.sockets.give(address))

    def _refuse_early(self, scope: Scope, path: str) -> Response | None:
        length = header(scope, b"content-length")
        size = natural(length) if length is not None else 0
        if size is None or size > self._limit(path):
            return self._too_large(path)
        if path in OPEN_PATHS:
            return None
        token = credential(header(scope, b"authorization"))
        wait = self.admission.admit(token, client_address(scope))
        if wait is None:
            return None
        return refusal(
            path,
            429,
            "RATE_LIMITED",
            "too many requests; retry after the time in Retry-After",
            {"retry-after": str(math.ceil(wait))},
        )

    def _limit(self, path: str) -> int:
        return max(self.larger_bodies.get(path, 0), self.max_body_bytes)

    def _too_large(self, path: str) -> Response:
        return refusal(
            path, 413, "PAYLOAD_TOO_LARGE", f"request body over {self._limit(path)} bytes", {}
        )


def client_address(scope: Scope) -> str:
    """The client as the address limits count it (rate, sockets, subscriptions)."""
    client = scope.get("client")
    if not client:
        return ""
    host = str(client[0])
    return _ipv6_subject(host) if ":" in host else host


@functools.lru_cache(maxsize=4096)
def _ipv6_subject(host: str) -> str:
    """An IPv6 client counts by its /64: a network hands each subscriber a whole /64, so each
    of its addresses would otherwise be a fresh allowance. An IPv4-mapped address counts as
    its IPv4 address."""
    try:
        address = ipaddress.IPv6Address(host)
    except ValueError:  # not an address (a test client's name, a Unix socket's path)
        return host
    if address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(ipaddress.IPv6Network((address, 64), strict=False))
