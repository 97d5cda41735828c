"""A game's versions as server-sent events, for clients that cannot hold a WebSocket
(docs/api.md, "Server-sent events (HTTP)"): `GET /v1/games/{game_id}/events`.

Each version is one event: `id:` the version, `event: version` and `data:` the game as
`GET /v1/games/{game_id}` answers the same caller at that version (rendering.game_json). The
versions are gameEvents' (GameService.follow: every one after the resume point, else the
current one, then each new one, in order and each once; a delayed spectator's late), and a
frame is rendered once per audience and version and sent to every stream of that audience
(edge/frames.py). What is refused before the stream starts (a bad resume point, a game the
caller may not read, too many live subscriptions) is a problem+json answer; a refusal once it
runs (the game gone, the token reissued, the store away) is one `event: problem`, then the end.

Bounded and polite: `retry:` first, a `: keepalive` comment while nothing happens, the end
after the FINISHED or ABANDONED event. A client that stops reading is cut when one send waits
SEND_TIMEOUT_SECONDS or it falls RULES_SUBSCRIBER_QUEUE versions behind; it resumes with
Last-Event-ID. Streams count against RULES_MAX_SUBSCRIPTIONS_PER_ADDRESS with the process's
GraphQL subscriptions, the versions a client missed are paced with theirs (edge/pacing.py), and
streams end when the server stops (Streams.close), so that a graceful shutdown does not wait
for the games to end.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncGenerator, Awaitable
from contextlib import aclosing
from dataclasses import dataclass
from functools import partial

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from service import metrics
from service.api.edge.frames import Frames
from service.api.edge.guard import STREAMING, Occupancy, client_address
from service.api.edge.pacing import Pacer, Replay
from service.api.edge.parsing import natural
from service.api.edge.problems import Problem, from_refusal, problem_response
from service.api.rest.http import Rest, wanted
from service.api.rest.operation import (
    ACT_AS,
    GAME_ID,
    GAME_ROUTE,
    LANGUAGE,
    ONE_GAME,
    READER,
    WITH_MESSAGES,
    Operation,
    RestRoute,
    Schema,
    problems,
    ref,
)
from service.api.rest.rendering import game_json
from service.core import Caller
from service.core.reads.following import Version
from service.refusals import Code, Refused

KEEPALIVE_SECONDS = 15.0  # under the idle timeouts proxies and load balancers cut at (60 s)
SEND_TIMEOUT_SECONDS = 10.0  # one send waiting this long: the client stopped reading
CLOSE_SECONDS = 1.0  # the end of a stream told to stop, sent if it can be at once
RETRY_MS = 2000  # how long EventSource waits before it reconnects
FRAMES_KEPT = 2048

RETRY = f"retry: {RETRY_MS}\n\n".encode()
KEEPALIVE = b": keepalive\n\n"
END = {"type": "http.response.body", "body": b"", "more_body": False}

log = logging.getLogger("service.streams")


class Streams:
    """One app's event streams: the frames rendered for them, the count per client address
    they share with the GraphQL subscriptions, the pacing of what followers missed (shared with
    them too), and the open streams, ended when the server stops."""

    def __init__(self, occupancy: Occupancy, pacer: Pacer) -> None:
        self.occupancy, self.pacer = occupancy, pacer
        self.frames = Frames(FRAMES_KEPT)
        self.stops: set[asyncio.Future[None]] = set()
        self.closed = False

    def close(self) -> None:
        """End every stream, and refuse new ones: the server is stopping, and its clients
        resume on another replica."""
        self.closed = True
        for stop in self.stops:
            if not stop.done():
                stop.set_result(None)


@dataclass(frozen=True)
class EventsRoute:
    """What the route is handed: REST's game service and the app's streams."""

    rest: Rest
    streams: Streams


@dataclass(frozen=True)
class Asked:
    """What one stream follows, for whom, in which words."""

    game_id: str
    caller: Caller
    after: int | None
    language: str
    messages: bool


async def game_events(handed: EventsRoute, request: Request) -> Response:
    rest = handed.rest
    game_id, caller = request.path_params["game_id"], rest.caller(request)
    asked = Asked(game_id, caller, resume_point(request), *wanted(request))
    loaded = await rest.service.read(game_id, caller)  # the refusals before the stream starts
    version, after = loaded.record.version, asked.after
    if after is not None and after > version:
        raise Refused(
            Code.OUT_OF_RANGE,
            f"Last-Event-ID and after are 0 to {version} (the game's version as you may see it), "
            f"not {after}",
        )
    if after == version and loaded.status() != "ACTIVE":
        return Response(status_code=204)  # nothing follows: EventSource stops reconnecting
    return EventStream(handed, asked)


def resume_point(request: Request) -> int | None:
    """The version the client saw last: Last-Event-ID (what EventSource sends when it
    reconnects, so it wins over the URL's `after`; empty, as the SSE spec sends none), else
    `?after=`, else None (from the current version)."""
    given = request.headers.get("last-event-id", "").strip()
    name = "Last-Event-ID"
    if not given and "after" in request.query_params:
        given, name = request.query_params["after"].strip(), "after"
    elif not given:
        return None
    version = natural(given)
    if version is None:
        raise Problem("BAD_REQUEST", f"{name} must be a version (a whole number), e.g. 12")
    return version


class EventStream(Response):
    """The stream of one request: its versions, each sent as its audience's frame."""

    media_type = "text/event-stream"

    def __init__(self, handed: EventsRoute, asked: Asked) -> None:
        self.status_code, self.background = 200, None
        # no-store: never kept by a shared cache (a spectator's reads may be); no buffering
        # in nginx-like proxies (X-Accel-Buffering)
        self.init_headers({"cache-control": "no-store", "x-accel-buffering": "no"})
        self.service, self.streams, self.asked = handed.rest.service, handed.streams, asked

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        streams, address = self.streams, client_address(scope)
        if streams.closed:
            refused = Problem("UNAVAILABLE", "the server is stopping; reconnect (Last-Event-ID)")
            await problem_response(refused, language=self.asked.language)(scope, receive, send)
            return
        if not streams.occupancy.take(address):
            refused = Problem(
                "TOO_MANY_SUBSCRIPTIONS",
                "too many live subscriptions (event streams and gameEvents) from this address",
            )
            await problem_response(refused, language=self.asked.language)(scope, receive, send)
            return
        stop: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        streams.stops.add(stop)
        try:
            scope[STREAMING] = True  # the guard counts the request answered now
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            if scope["method"] == "HEAD":
                await send(END)
                return
            await self._run(receive, send, stop, address)
        finally:
            streams.stops.discard(stop)
            streams.occupancy.give(address)

    async def _run(
        self, receive: Receive, send: Send, stop: asyncio.Future[None], address: str
    ) -> None:
        """Sends until the game ends, the client leaves, it stops reading or the server
        stops; then the end of the body if it can still be sent."""

        def drop() -> None:  # the follower fell RULES_SUBSCRIBER_QUEUE versions behind
            if not stop.done():
                stop.set_result(None)

        asked = self.asked
        versions = self.service.follow(asked.game_id, asked.caller, asked.after, drop)
        writer = asyncio.ensure_future(self._write(send, versions, address))
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            await asyncio.wait((writer, gone, stop), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (writer, gone):
                task.cancel()
            await asyncio.wait((writer, gone))
        error = None if writer.cancelled() else writer.exception()
        if isinstance(error, TimeoutError):
            log.info("an event stream was cut: its client stopped reading")
            return  # a send cannot complete: uvicorn closes the connection
        if (gone.done() and not gone.cancelled()) or isinstance(error, OSError):
            return  # the client left (a server of ASGI 2.4 raises OSError on a send after it)
        if error is not None:
            raise error
        try:
            async with asyncio.timeout(CLOSE_SECONDS if stop.done() else SEND_TIMEOUT_SECONDS):
                await send(END)
        except TimeoutError:
            log.info("an event stream was cut: its client stopped reading")

    async def _write(
        self, send: Send, versions: AsyncGenerator[Version, None], address: str
    ) -> None:
        """`retry:`, then each version's frame, a keepalive while none comes; a refusal once
        it runs as one `problem` event. The versions the client missed are paced
        (edge/pacing.py), the live ones are not. TimeoutError when a send cannot complete."""
        await _send(send, RETRY)
        replay: Replay | None = None
        async with aclosing(versions):
            pending: asyncio.Future[Version | None] | None = None
            try:
                while True:
                    pending = pending or asyncio.ensure_future(anext(versions, None))
                    done, _ = await asyncio.wait((pending,), timeout=KEEPALIVE_SECONDS)
                    if not done:
                        await _send(send, KEEPALIVE)
                        continue
                    seen, pending = pending.result(), None
                    if seen is None:
                        return  # the game ended (or is gone)
                    started = time.perf_counter()
                    await _send(send, (await self._frame(seen)).encode())
                    if seen.catching_up:
                        asked = self.asked
                        replay = replay or self.streams.pacer.replay(
                            asked.caller.token, address, asked.game_id
                        )
                        await replay.paced(time.perf_counter() - started)
            except Refused as refused:
                problem = problem_response(from_refusal(refused), language=self.asked.language)
                await _send(send, b"event: problem\ndata: " + bytes(problem.body) + b"\n\n")
            finally:
                if pending is not None:
                    pending.cancel()
                    await asyncio.wait((pending,))

    def _frame(self, seen: Version) -> Awaitable[str]:
        """The event of one version, rendered once for everyone who asks the same."""
        asked = self.asked
        audience = (EVENTS.path, asked.caller, asked.language, asked.messages)
        key = (*audience, asked.game_id, seen.version, seen.status)
        return self.streams.frames.payload(key, partial(self._render, seen.version))

    async def _render(self, version: int) -> str:
        metrics.LIVE_RENDERS.inc()
        asked = self.asked
        loaded = await self.service.read(asked.game_id, asked.caller)
        then = await self.service.at_version(loaded, min(version, loaded.record.version))
        game = game_json(then, asked.caller.tenant, asked.language, asked.messages)
        return f"id: {version}\nevent: version\ndata: {msgspec.json.encode(game).decode()}\n\n"


async def _send(send: Send, chunk: bytes) -> None:
    async with asyncio.timeout(SEND_TIMEOUT_SECONDS):
        await send({"type": "http.response.body", "body": chunk, "more_body": True})


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


VERSION: Schema = {"type": "integer", "minimum": 0}
LAST_EVENT_ID: Schema = {
    "name": "Last-Event-ID",
    "in": "header",
    "schema": {"type": "string"},
    "description": "The last version the client received (EventSource sends it when it "
    "reconnects): every version after it, then the live ones. Wins over `after`. Not a "
    "version, or past the game's version as the caller may see it: 400 BAD_REQUEST.",
}
AFTER: Schema = {
    "name": "after",
    "in": "query",
    "schema": VERSION,
    "description": "As Last-Event-ID, for clients that cannot set headers (0: from the first "
    "version).",
}
EVENT: Schema = {
    "type": "object",
    "description": f"One server-sent event. The stream opens with `retry: {RETRY_MS}`; then "
    "each version is `id: <version>`, `event: version` and one `data:` line, the game as GET "
    "/v1/games/{gameId} answers the same caller at that version; a comment `: keepalive` "
    f"comes every {KEEPALIVE_SECONDS:g} s while nothing happens. A refusal once the stream runs (the game gone, "
    "the token reissued, the store away) is one `event: problem` whose data is a Problem. "
    "The stream ends after the FINISHED or ABANDONED event (or that problem).",
    "properties": {
        "id": {"type": "string", "description": "The version (`event: version` only)."},
        "event": {"enum": ["version", "problem"]},
        "data": {
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": {"oneOf": [ref("Game"), ref("Problem")]},
        },
        "retry": {"type": "integer", "description": "Milliseconds before a reconnect."},
    },
}

EVENTS = RestRoute(
    f"{ONE_GAME}/events",
    "GET",
    game_events,
    Operation(
        "getGameEvents",
        "The game's versions as server-sent events (text/event-stream): the current one, or "
        "every one after Last-Event-ID or `after`, then each new one, from any replica, in "
        "order and each once (a delayed spectator's late, as gameEvents); it ends after the "
        "FINISHED or ABANDONED event. Counts against the live subscriptions per address "
        "(429 TOO_MANY_SUBSCRIPTIONS).",
        READER,
        {
            "200": {
                "description": "the events",
                "content": {"text/event-stream": {"schema": EVENT}},
            },
            "204": {
                "description": "The game is over and the resume point is its last version: "
                "nothing follows (EventSource stops reconnecting)."
            },
            **problems(
                *GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN", "BAD_USER_INPUT", "TOO_MANY_SUBSCRIPTIONS"
            ),
        },
        parameters=[GAME_ID, ACT_AS, LAST_EVENT_ID, AFTER, LANGUAGE, WITH_MESSAGES],
        layout="parameters",
    ),
)
