"""A game as a resource: create it, list a tenant's games, read one, resign and abandon."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from service.api.edge.problems import Problem
from service.api.rest.components import INTEGER, STRATEGY_NAMES
from service.api.rest.http import (
    Rest,
    etag,
    if_match,
    json_response,
    language_of,
    messages_of,
    page_query,
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
    TENANT,
    WITH_MESSAGES,
    Operation,
    RestRoute,
    body,
    ok,
    problems,
    query,
    ref,
    tagged_responses,
)
from service.api.rest.rendering import game_json
from service.core import Applied
from service.core.access.keys import MAX_SPECTATOR_DELAY
from service.core.players.lobby import FILL_STRATEGY
from service.core.players.seating import MAX_FILL_SECONDS, MIN_FILL_SECONDS, OpenSeat
from service.core.reads.listing import GameFilter
from service.games import games
from service.store import indexes


class BotSeat(msgspec.Struct, forbid_unknown_fields=True):
    seat: int
    strategy: str


class OpenSeatBody(msgspec.Struct, forbid_unknown_fields=True):
    seat: int
    reserved_for: str | None = msgspec.field(default=None, name="reservedFor")


class CreateBody(msgspec.Struct, forbid_unknown_fields=True):
    kind: str
    players: int
    seed: str | None = None
    options: dict[str, Any] | None = None
    bots: list[BotSeat] | None = None
    player_ids: list[str | None] | None = msgspec.field(default=None, name="playerIds")
    clock: dict[str, Any] | None = None
    spectator_delay: int = msgspec.field(default=0, name="spectatorDelay")
    takebacks: str | None = None
    open_seats: list[OpenSeatBody] | None = msgspec.field(default=None, name="openSeats")
    fill_after: int | None = msgspec.field(default=None, name="fillWithBotsAfterSeconds")
    fill_strategy: str = msgspec.field(default=FILL_STRATEGY, name="fillWithBotsStrategy")


async def create_game(rest: Rest, request: Request) -> Response:
    body = await read_body(request, CreateBody, rest.max_depth)
    lang, messages = wanted(request)
    bots = {bot.seat: bot.strategy for bot in body.bots or []}
    loaded, tokens = await rest.service.create(
        body.kind,
        body.players,
        body.seed,
        body.options,
        request.headers.get("x-api-key"),
        bots,
        body.player_ids,
        body.clock,
        body.spectator_delay,
        body.takebacks,
        [OpenSeat(s.seat, s.reserved_for) for s in body.open_seats or []],
        body.fill_after,
        body.fill_strategy,
    )
    created: dict[str, Any] = {}
    if body.open_seats:
        lobby = await rest.service.lobby(loaded.id)
        created = {"joinCode": lobby.code, "inviteUrl": lobby.invite_url}
    ids = loaded.record.player_ids
    seats = [
        {"seat": seat, "token": token, "playerId": ids[seat] if seat < len(ids) else None}
        for seat, token in tokens.items()
    ]
    tenant = loaded.record.tenant
    return json_response(
        {"game": game_json(loaded, tenant, lang, messages), "seats": seats, **created},
        201,
        {
            "location": f"/v1/games/{loaded.id}",
            "etag": etag(loaded, tenant, *shape(lang, messages)),
        },
    )


async def list_games(rest: Rest, request: Request) -> Response:
    tenant = rest.tenant_of(request)
    asked = listing_query(request)
    lang, messages = wanted(request)
    page = await rest.service.list_games(tenant, *asked)
    headers = {"vary": "x-api-key"}
    if page.has_next and page.end_cursor is not None:
        query = [(k, v) for k, v in request.query_params.multi_items() if k != "after"]
        query.append(("after", page.end_cursor))
        headers["link"] = f'</v1/games?{urlencode(query)}>; rel="next"'
    body = {
        "games": [game_json(loaded, tenant, lang, messages) for _, loaded in page.games],
        "nextCursor": page.end_cursor if page.has_next else None,
    }
    return json_response(body, headers=headers)


async def get_game(rest: Rest, request: Request) -> Response:
    messages = messages_of(request)
    loaded = await rest.read(request)
    tenant, lang = rest.tenant_of(request), language_of(request)
    # the view depends on the token (or the seat acted for), so shared caches key on them
    vary = {"vary": "authorization, x-api-key, x-act-as-seat"}
    tag = etag(loaded, tenant, *shape(lang, messages))
    return tagged(request, tag, lambda: game_json(loaded, tenant, lang, messages), vary)


def ended_json(applied: Applied, tenant: str | None, request: Request) -> Response:
    loaded = applied.game
    lang, messages = wanted(request)
    headers = {"etag": etag(loaded, tenant, *shape(lang, messages))}
    return json_response({"game": game_json(loaded, tenant, lang, messages)}, headers=headers)


async def resign(rest: Rest, request: Request) -> Response:
    wanted(request)  # a bad ?messages= changes nothing
    applied = await rest.service.resign(
        request.path_params["game_id"], rest.caller(request), if_match(request)
    )
    return ended_json(applied, None, request)


async def abandon(rest: Rest, request: Request) -> Response:
    tenant = rest.tenant_of(request)
    wanted(request)
    applied = await rest.service.abandon(request.path_params["game_id"], tenant)
    return ended_json(applied, tenant, request)


LISTING_PARAMS = {
    "status",
    "kind",
    "playerId",
    "toActPlayerId",
    "createdAfter",
    "first",
    "after",
    "messages",
    "language",
}


def listing_query(request: Request) -> tuple[GameFilter, int, str | None]:
    """GET /v1/games' query: the filter, the page size and the cursor."""
    params = request.query_params
    status, kind, first = page_query(request, LISTING_PARAMS)
    created = params.get("createdAfter")
    try:
        when = None if created is None else datetime.fromisoformat(created)
    except ValueError:
        raise Problem("BAD_REQUEST", "createdAfter is an ISO 8601 time") from None
    if when is not None and when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    only = GameFilter(
        status=status,
        kind=kind,
        player_id=params.get("playerId"),
        to_act_player_id=params.get("toActPlayerId"),
        created_after=None if when is None else when.timestamp(),
    )
    return only, first, params.get("after")


LINK = {"description": 'The next page: <url>; rel="next".', "schema": {"type": "string"}}

CREATE = RestRoute(
    "/v1/games",
    "POST",
    create_game,
    Operation(
        "createGame",
        "Create a game; the answer holds each seat's token, once.",
        TENANT,
        {
            **ok(ref("CreatedGame"), "created", "201"),
            **problems("BAD_USER_INPUT", "UNAUTHORIZED"),
        },
        parameters=[LANGUAGE, WITH_MESSAGES],
        request_body=body(ref("CreateGame")),
    ),
)
LIST = RestRoute(
    "/v1/games",
    "GET",
    list_games,
    Operation(
        "listGames",
        "The tenant's games (X-API-Key), newest first, as a spectator sees them; the next "
        "page's URL is in the Link header (rel=next).",
        TENANT,
        {
            "200": {**ok(ref("GamePage"), "a page of games")["200"], "headers": {"Link": LINK}},
            **problems("UNAUTHORIZED"),
        },
        parameters=[
            query("status", {"enum": list(indexes.STATUSES)}),
            query("kind", {"enum": list(games())}),
            query("playerId", {"type": "string", "maxLength": 128}),
            query("toActPlayerId", {"type": "string", "maxLength": 128}),
            query("createdAfter", {"type": "string", "format": "date-time"}),
            query("first", {"type": "integer", "minimum": 1, "maximum": 100}),
            query("after", {"type": "string"}),
            LANGUAGE,
            WITH_MESSAGES,
        ],
    ),
)
GET = RestRoute(
    ONE_GAME,
    "GET",
    get_game,
    Operation(
        "getGame",
        "The game as the bearer's seat sees it (a spectator without a token).",
        READER,
        {
            **tagged_responses(ref("Game"), "the game"),
            **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN"),
        },
        parameters=READ_PARAMETERS,
        layout="parameters",
    ),
)
RESIGN = RestRoute(
    f"{ONE_GAME}/resign",
    "POST",
    resign,
    Operation(
        "resign",
        "The bearer's seat resigns: the game is FINISHED with an outcome.",
        ACTING,
        {
            **ok(ref("EndedGame"), "the game, over"),
            **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN", "GAME_OVER", "STALE_VERSION"),
        },
        parameters=[GAME_ID, ACT_AS, LANGUAGE, WITH_MESSAGES],
        layout="parameters",
    ),
)
ABANDON = RestRoute(
    f"{ONE_GAME}/abandon",
    "POST",
    abandon,
    Operation(
        "abandonGame",
        "The game's tenant (X-API-Key) calls it off: ABANDONED, no winners. Another tenant's "
        "key gets 404.",
        TENANT,
        {
            **ok(ref("EndedGame"), "the game, abandoned"),
            **problems(*GAME_ROUTE, "UNAUTHORIZED", "GAME_OVER", "STALE_VERSION"),
        },
        parameters=[GAME_ID, LANGUAGE, WITH_MESSAGES],
        layout="parameters",
    ),
)


def schemas() -> dict[str, Any]:
    """The body createGame reads."""
    return {
        "CreateGame": {
            "type": "object",
            "properties": {
                "kind": {"enum": list(games())},
                "players": INTEGER,
                "seed": {
                    "type": ["string", "null"],
                    "maxLength": 200,
                    "description": "For tests and replays: whoever chooses the seed knows "
                    "every hidden card. Left out, the server draws one. In production it "
                    "needs a tenant's API key (422 BAD_USER_INPUT otherwise).",
                },
                "options": {"type": ["object", "null"]},
                "bots": {
                    "type": ["array", "null"],
                    "items": {
                        "type": "object",
                        "properties": {"seat": INTEGER, "strategy": {"enum": STRATEGY_NAMES}},
                        "required": ["seat", "strategy"],
                        "additionalProperties": False,
                    },
                },
                "clock": {"oneOf": [ref("ClockOption"), {"type": "null"}]},
                "takebacks": {"oneOf": [ref("TakebackPolicy"), {"type": "null"}]},
                "playerIds": {
                    "type": ["array", "null"],
                    "items": {"type": ["string", "null"], "minLength": 1, "maxLength": 128},
                    "description": "The app's own user id per seat, by seat.",
                },
                "spectatorDelay": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": MAX_SPECTATOR_DELAY,
                    "default": 0,
                    "description": "Spectators (no seat token, not the game's tenant) see the "
                    "game this many versions behind while it is ACTIVE; seats and the tenant "
                    "see it live (422 BAD_USER_INPUT past the maximum).",
                },
                "openSeats": {
                    "type": ["array", "null"],
                    "items": {
                        "type": "object",
                        "properties": {
                            "seat": INTEGER,
                            "reservedFor": {"type": ["string", "null"], "maxLength": 128},
                        },
                        "required": ["seat"],
                        "additionalProperties": False,
                    },
                    "description": "Seats left for players to join (joinGame); the game "
                    'starts once every seat is filled (docs/api.md, "Players").',
                },
                "fillWithBotsAfterSeconds": {
                    "type": ["integer", "null"],
                    "minimum": MIN_FILL_SECONDS,
                    "maximum": MAX_FILL_SECONDS,
                    "description": "With openSeats: seats still open this long after create "
                    "are the bots' and the game starts.",
                },
                "fillWithBotsStrategy": {"enum": STRATEGY_NAMES, "default": FILL_STRATEGY},
            },
            "required": ["kind", "players"],
            "additionalProperties": False,
        },
    }
