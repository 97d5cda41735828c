"""Matchmaking over REST (docs/api.md, "Matchmaking"), as GraphQL's `enterMatchmaking`,
`leaveMatchmaking`, `matchmaking` and `playerEvents`: `POST /v1/matchmaking`,
`DELETE /v1/matchmaking?playerId=`, `GET /v1/matchmaking/{playerId}` (and a player token's
`GET /v1/player/matchmaking`) and the server-sent events of `GET /v1/players/{playerId}/events`.
Each acts for one player: one the tenant (X-API-Key) names with `playerId`, or a player token's
own (Authorization: Bearer; its `playerId` may be left out where it is not in the path),
through the core's `(tenant, player id)` operations (service/core/lobby, `seeker`)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from service.api.edge.guard import STREAMING, client_address
from service.api.edge.parsing import bearer_token
from service.api.edge.problems import Problem, problem_response
from service.api.rest.events import EventsRoute, Streams
from service.api.rest.http import Rest, json_response, read_body
from service.api.rest.operation import (
    TENANT,
    Operation,
    RestRoute,
    Schema,
    Security,
    body,
    ok,
    problems,
    struct_schema,
)
from service.core.lobby import EVENT_TYPES, Lobby, Seeker, Status, lobby_for, seek, seeker
from service.games import games
from service.ratings.ledger import Ledger

KEEPALIVE_SECONDS = 15.0
SEND_TIMEOUT_SECONDS = 10.0
PRIVATE = {"cache-control": "no-store"}
PLAYER: Security = [{"seatToken": []}]  # a player token, as a bearer token
SEEKER: Security = [*TENANT, *PLAYER]  # the tenant's key naming the player, or its own token


class SeekBody(msgspec.Struct, rename="camel", forbid_unknown_fields=True):
    kind: str
    players: int
    player_id: str | None = None  # a player token's own when left out
    options: dict[str, Any] | None = None
    rating: float | None = None


async def _lobby(rest: Rest, request: Request, player_id: str | None) -> tuple[Lobby, Seeker]:
    service = rest.service
    token = bearer_token(request)
    asking = await seeker(service.player_tokens, token, rest.tenant_of(request), player_id)
    return lobby_for(service.store, Ledger.of(service.store)), asking


def _status(status: Status) -> Response:
    return json_response(msgspec.to_builtins(status), headers=PRIVATE)


async def enter(rest: Rest, request: Request) -> Response:
    asked: SeekBody = await read_body(request, SeekBody, rest.max_depth)
    lobby, asking = await _lobby(rest, request, asked.player_id)
    rating = asked.rating if asking.by_tenant else None  # a player's own is ignored
    found = seek(asked.kind, asked.players, asked.options, asking.player_id, rating)
    return _status(await lobby.enter(asking.tenant, found))


def _player_param(request: Request) -> str | None:
    unknown = set(request.query_params.keys()) - {"playerId"}
    if unknown:
        raise Problem("BAD_REQUEST", "name the player: DELETE /v1/matchmaking?playerId=<id>")
    return request.query_params.get("playerId")


async def leave(rest: Rest, request: Request) -> Response:
    lobby, asking = await _lobby(rest, request, _player_param(request))
    return _status(await lobby.leave(asking.tenant, asking.player_id))


async def status(rest: Rest, request: Request) -> Response:
    lobby, asking = await _lobby(rest, request, request.path_params.get("player_id"))
    return _status(await lobby.status(asking.tenant, asking.player_id))


async def player_events(handed: EventsRoute, request: Request) -> Response:
    lobby, asking = await _lobby(handed.rest, request, request.path_params["player_id"])
    tenant, player_id = asking.tenant, asking.player_id
    await lobby.status(tenant, player_id)  # the refusals before the stream starts
    return PlayerStream(lobby, handed.streams, tenant, player_id)


class PlayerStream(Response):
    """One player's statuses as server-sent events: `event: status`, the status as
    `GET /v1/matchmaking/{playerId}` answers it; now, then each match made for the player."""

    media_type = "text/event-stream"

    def __init__(self, lobby: Lobby, streams: Streams, tenant: str, player_id: str) -> None:
        self.status_code, self.background = 200, None
        self.init_headers({"cache-control": "no-store", "x-accel-buffering": "no"})
        self.lobby, self.streams, self.tenant, self.player_id = lobby, streams, tenant, player_id

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        streams, address = self.streams, client_address(scope)
        if streams.closed or not streams.occupancy.take(address):
            code = "UNAVAILABLE" if streams.closed else "TOO_MANY_SUBSCRIPTIONS"
            refused = Problem(code, "no event stream now: the server is stopping or busy")
            await problem_response(refused)(scope, receive, send)
            return
        stop: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        streams.stops.add(stop)
        try:
            scope[STREAMING] = True
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            writer = asyncio.ensure_future(self._write(send, stop))
            gone = asyncio.ensure_future(_disconnected(receive))
            try:
                await asyncio.wait((writer, gone, stop), return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (writer, gone):
                    task.cancel()
                await asyncio.wait((writer, gone))
            with contextlib.suppress(TimeoutError, OSError):
                async with asyncio.timeout(1.0):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            streams.stops.discard(stop)
            streams.occupancy.give(address)

    async def _write(self, send: Send, stop: asyncio.Future[None]) -> None:
        def drop() -> None:
            if not stop.done():
                stop.set_result(None)

        statuses = self.lobby.follow(self.tenant, self.player_id, drop)
        await _send(send, b"retry: 2000\n\n")
        async with contextlib.aclosing(statuses):
            pending: asyncio.Future[Status] | None = None
            try:
                while True:
                    pending = pending or asyncio.ensure_future(anext(statuses))
                    done, _ = await asyncio.wait((pending,), timeout=KEEPALIVE_SECONDS)
                    if not done:
                        await _send(send, b": keepalive\n\n")
                        continue
                    told = pending.result()
                    data = msgspec.json.encode(msgspec.to_builtins(told))
                    pending = None
                    await _send(send, _event_name(told) + b"data: " + data + b"\n\n")
            finally:
                if pending is not None:
                    pending.cancel()
                    await asyncio.wait((pending,))


async def _send(send: Send, chunk: bytes) -> None:
    async with asyncio.timeout(SEND_TIMEOUT_SECONDS):
        await send({"type": "http.response.body", "body": chunk, "more_body": True})


# The SSE event of a frame: `status` for the status and a match (as before news shared the
# stream), the news' own names (as their webhook events are named) for the rest.
_EVENT_NAMES = {
    told: f"event: {'status' if told == 'MATCHED' else name}\n".encode()
    for name, told in EVENT_TYPES.items()
}


def _event_name(status: Status) -> bytes:
    return b"event: status\n" if status.type is None else _EVENT_NAMES[status.type]


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


STATUS: Schema = {
    "type": "object",
    "description": "A player's matchmaking: NONE, WAITING (since when, the pool, the rating "
    "window now), MATCHING (a match was made, its game is being created) or MATCHED (the "
    "game, the player's seat and its seat token, kept a day).",
    "properties": {
        "playerId": {"type": "string"},
        "state": {"enum": ["NONE", "WAITING", "MATCHING", "MATCHED"]},
        "kind": {"type": ["string", "null"]},
        "players": {"type": ["integer", "null"]},
        "options": {"type": ["object", "null"]},
        "rating": {"type": ["number", "null"]},
        "waitingSince": {"type": ["number", "null"], "description": "Epoch seconds."},
        "window": {"type": ["number", "null"]},
        "gameId": {"type": ["string", "null"]},
        "seat": {"type": ["integer", "null"]},
        "seatToken": {"type": ["string", "null"]},
        "type": {
            "enum": [*EVENT_TYPES.values(), None],
            "description": "On the player's event stream, what the frame tells (null: the "
            "status now). CHALLENGE_RECEIVED, REMATCH_OFFERED and GAME_STARTED (SSE events "
            "`challenge.received`, `rematch.offered`, `game.started`) carry the game, its kind, "
            "seat count and the player's seat, no seat token, `state` the player's matchmaking "
            "now; MATCHED (`event: status`) a match with its seat token.",
        },
    },
    "required": ["playerId", "state"],
}
PLAYER_ID: Schema = {
    "name": "playerId",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "minLength": 1, "maxLength": 128},
}


def _seek_schema() -> Schema:
    schema = struct_schema(SeekBody)
    schema["properties"]["kind"] = {"enum": sorted(games())}
    return schema


ENTER = RestRoute(
    "/v1/matchmaking",
    "POST",
    enter,
    Operation(
        "enterMatchmaking",
        "The tenant's (X-API-Key) player waits for a game of `kind` with `players` seats and "
        "these options, matched by rating with players whose windows fit, first in first "
        "matched; MATCHED at once when a group fits now. The same pool again: the same seek; "
        "another pool while waiting: 409 ALREADY_QUEUED. Or a player token's own player "
        "(playerId left out or its own, else 403; its rating is ignored: the player's mu "
        "from the ratings is used, else 25).",
        SEEKER,
        {
            **ok(STATUS, "the player's matchmaking now"),
            **problems("UNAUTHORIZED", "FORBIDDEN", "BAD_USER_INPUT", "ALREADY_QUEUED"),
        },
        request_body=body(_seek_schema()),
    ),
)
LEAVE = RestRoute(
    "/v1/matchmaking",
    "DELETE",
    leave,
    Operation(
        "leaveMatchmaking",
        "The player's seek is withdrawn; 409 NOT_QUEUED when it waits in no pool. A player "
        "token may leave playerId out.",
        SEEKER,
        {
            **ok(STATUS, "the player's matchmaking now (NONE)"),
            **problems("UNAUTHORIZED", "FORBIDDEN", "BAD_USER_INPUT", "NOT_QUEUED"),
        },
        parameters=[{**PLAYER_ID, "in": "query", "required": False}],
    ),
)
STATUS_ROUTE = RestRoute(
    "/v1/matchmaking/{player_id}",
    "GET",
    status,
    Operation(
        "getMatchmaking",
        "A player's matchmaking now: waiting since, the window now, or the matched game. A "
        "player token asks for its own player only (403 for another).",
        SEEKER,
        {
            **ok(STATUS, "the player's matchmaking"),
            **problems("UNAUTHORIZED", "FORBIDDEN", "BAD_USER_INPUT", "UNKNOWN_ROUTE"),
        },
        parameters=[PLAYER_ID],
    ),
)
MY_STATUS = RestRoute(
    "/v1/player/matchmaking",
    "GET",
    status,
    Operation(
        "myMatchmaking",
        "The bearer's player's (a player token) matchmaking now, as getMatchmaking answers it.",
        PLAYER,
        {
            **ok(STATUS, "the player's matchmaking"),
            # a tenant's key names no player here: it asks GET /v1/matchmaking/{playerId}
            **problems("UNAUTHORIZED", "BAD_USER_INPUT"),
        },
    ),
)
ROUTES = (ENTER, LEAVE, STATUS_ROUTE, MY_STATUS)
PLAYER_EVENT: Schema = {
    "type": "object",
    "description": "One server-sent event: `event: status` with the player's matchmaking now "
    "and each match (its `type` MATCHED), or the news named by the event (challenge.received, "
    "rematch.offered, game.started), each with one `data:` line, the status as "
    "getMatchmaking answers it; a comment `: keepalive` while nothing happens.",
    "properties": {
        "event": {"enum": ["status", "challenge.received", "rematch.offered", "game.started"]},
        "data": {"type": "string", "description": "JSON: the status, as getMatchmaking's."},
    },
}

EVENTS = RestRoute(
    "/v1/players/{player_id}/events",
    "GET",
    player_events,
    Operation(
        "getPlayerEvents",
        "A player's matchmaking as server-sent events (text/event-stream): `event: status` "
        "with the status now, then one for each match made for the player (MATCHED, with its "
        "seat token), from any replica. Counts against the live subscriptions per address. "
        "With a player token, its own player id only (403 for another).",
        SEEKER,
        {
            "200": {
                "description": "the events",
                "content": {"text/event-stream": {"schema": PLAYER_EVENT}},
            },
            **problems(
                "UNAUTHORIZED",
                "FORBIDDEN",
                "BAD_USER_INPUT",
                "TOO_MANY_SUBSCRIPTIONS",
                "UNKNOWN_ROUTE",
            ),
        },
        parameters=[PLAYER_ID],
    ),
)
