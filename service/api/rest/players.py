"""Players (docs/api.md, "Players"): player tokens issued and revoked by a tenant, open seats
joined and left with a player token, a game's lobby and a player's own games. The same
service calls and refusals as GraphQL's (service/api/graphql/players.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from service.api.rest.http import Rest, json_response, page_query, read_body, wanted
from service.api.rest.operation import (
    GAME_ID,
    GAME_ROUTE,
    LANGUAGE,
    ONE_GAME,
    TENANT,
    WITH_MESSAGES,
    Operation,
    RestRoute,
    Security,
    body,
    ok,
    problems,
    query,
    ref,
    struct_schema,
)
from service.api.rest.rendering import game_json
from service.core.players.tokens import DEFAULT_TTL, MAX_TTL, MIN_TTL, looks_like_player_token
from service.core.reads.listing import GameFilter
from service.games import games
from service.store import indexes

PLAYER: Security = [{"seatToken": []}]  # a player token, as a bearer token (Authorization: Bearer)
NO_STORE = {"cache-control": "no-store"}


class IssueBody(msgspec.Struct, forbid_unknown_fields=True, rename="camel"):
    player_id: str
    ttl_seconds: int = DEFAULT_TTL


class RevokeBody(msgspec.Struct, forbid_unknown_fields=True, rename="camel"):
    player_id: str


class JoinBody(msgspec.Struct, forbid_unknown_fields=True, rename="camel"):
    code: str | None = None
    game_id: str | None = None


def _time(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat()


async def issue_token(rest: Rest, request: Request) -> Response:
    asked = await read_body(request, IssueBody, rest.max_depth)
    token, expires = rest.service.issue_player_token(
        rest.tenant_of(request), asked.player_id, asked.ttl_seconds
    )
    answer = {"token": token, "playerId": asked.player_id, "expiresAt": _time(expires)}
    return json_response(answer, 201, NO_STORE)


async def revoke_tokens(rest: Rest, request: Request) -> Response:
    asked = await read_body(request, RevokeBody, rest.max_depth)
    epoch = await rest.service.revoke_player_tokens(rest.tenant_of(request), asked.player_id)
    return json_response({"playerId": asked.player_id, "revokedBefore": _time(epoch)})


async def _joined(rest: Rest, request: Request, game_id: str | None, code: str | None) -> Response:
    lang, messages = wanted(request)
    loaded, seat = await rest.service.join_game(rest.caller(request), game_id, code)
    return json_response({"seat": seat, "game": game_json(loaded, None, lang, messages)})


async def join_game(rest: Rest, request: Request) -> Response:
    asked = await read_body(request, JoinBody, rest.max_depth)
    return await _joined(rest, request, asked.game_id, asked.code)


async def join_game_by_id(rest: Rest, request: Request) -> Response:
    return await _joined(rest, request, request.path_params["game_id"], None)


async def leave_game(rest: Rest, request: Request) -> Response:
    lang, messages = wanted(request)
    loaded = await rest.service.leave_game(rest.caller(request), request.path_params["game_id"])
    return json_response({"game": game_json(loaded, None, lang, messages)})


async def lobby(rest: Rest, request: Request) -> Response:
    service = rest.service
    found = await service.lobby(request.path_params["game_id"])
    caller = rest.caller(request)
    if looks_like_player_token(caller.token):
        tenant: str | None = (await service.player_of(caller)).tenant
    else:
        tenant = rest.tenant_of(request)
    shown = tenant == found.tenant  # the code to the game's tenant and its players only
    answer = {
        "gameId": found.game_id,
        "joinCode": found.code if shown else None,
        "inviteUrl": found.invite_url if shown else None,
        "openSeats": [{"seat": s, "reserved": r} for s, r in found.open_seats],
        "started": found.started,
    }
    return json_response(answer, headers=NO_STORE)


PAGE_PARAMS = {"status", "kind", "first", "after", "messages", "language"}


async def my_games(rest: Rest, request: Request) -> Response:
    params = request.query_params
    status, kind, first = page_query(request, PAGE_PARAMS)
    lang, messages = wanted(request)
    only = GameFilter(status=status, kind=kind)
    page = await rest.service.player_games(rest.caller(request), only, first, params.get("after"))
    answer = {
        "games": [game_json(loaded, None, lang, messages) for _, loaded in page.games],
        "nextCursor": page.end_cursor if page.has_next else None,
    }
    return json_response(answer, headers=NO_STORE)


ISSUE = RestRoute(
    "/v1/player-tokens",
    "POST",
    issue_token,
    Operation(
        "issuePlayerToken",
        f"The tenant (X-API-Key) gets a player token for one of its player ids, good for "
        f"ttlSeconds ({MIN_TTL} to {MAX_TTL}).",
        TENANT,
        {
            **ok(ref("PlayerToken"), "the token, shown once", "201"),
            **problems("UNAUTHORIZED", "BAD_USER_INPUT"),
        },
        request_body=body(struct_schema(IssueBody)),
    ),
)
REVOKE = RestRoute(
    "/v1/player-tokens/revoke",
    "POST",
    revoke_tokens,
    Operation(
        "revokePlayerTokens",
        "The tenant (X-API-Key) revokes every token of the player issued until now.",
        TENANT,
        {
            **ok(ref("PlayerTokensRevoked"), "the time before which tokens are refused"),
            **problems("UNAUTHORIZED", "BAD_USER_INPUT"),
        },
        request_body=body(struct_schema(RevokeBody)),
    ),
)
JOIN_CODES = ("UNAUTHORIZED", "FORBIDDEN", "GAME_FULL", "GAME_OVER", "BAD_USER_INPUT")
JOIN = RestRoute(
    "/v1/games/join",
    "POST",
    join_game,
    Operation(
        "joinGame",
        "The bearer's player (a player token) takes an open seat of the game its join code or "
        "id names; joining again answers the same seat. 409 GAME_FULL: none is left for it.",
        PLAYER,
        {**ok(ref("JoinedGame"), "the seat and the game"), **problems(*GAME_ROUTE, *JOIN_CODES)},
        parameters=[LANGUAGE, WITH_MESSAGES],
        request_body=body(struct_schema(JoinBody)),
    ),
)
JOIN_BY_ID = RestRoute(
    f"{ONE_GAME}/join",
    "POST",
    join_game_by_id,
    Operation(
        "joinGameById",
        "joinGame for the game in the path.",
        PLAYER,
        {**ok(ref("JoinedGame"), "the seat and the game"), **problems(*GAME_ROUTE, *JOIN_CODES)},
        parameters=[GAME_ID, LANGUAGE, WITH_MESSAGES],
        layout="parameters",
    ),
)
LEAVE = RestRoute(
    f"{ONE_GAME}/leave",
    "POST",
    leave_game,
    Operation(
        "leaveGame",
        "The bearer's player gives back the seats it joined, before the game starts (403 "
        "after: resign instead).",
        PLAYER,
        {
            **ok(ref("EndedGame"), "the game"),
            **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN", "GAME_OVER"),
        },
        parameters=[GAME_ID, LANGUAGE, WITH_MESSAGES],
        layout="parameters",
    ),
)
LOBBY = RestRoute(
    f"{ONE_GAME}/lobby",
    "GET",
    lobby,
    Operation(
        "lobby",
        "The game's open seats and, to its tenant (X-API-Key) and its players (a player "
        "token), its join code and invite link.",
        [{}, {"seatToken": []}],
        {**ok(ref("Lobby"), "the lobby"), **problems(*GAME_ROUTE, "UNAUTHORIZED")},
        parameters=[GAME_ID],
        layout="parameters",
    ),
)
MY_GAMES = RestRoute(
    "/v1/player/games",
    "GET",
    my_games,
    Operation(
        "myGames",
        "The games the bearer's player (a player token) sits in or is awaited in, newest "
        "first, each as its seat sees it.",
        PLAYER,
        {**ok(ref("GamePage"), "a page of games"), **problems("UNAUTHORIZED")},
        parameters=[
            query("status", {"enum": list(indexes.STATUSES)}),
            query("kind", {"enum": list(games())}),
            query("first", {"type": "integer", "minimum": 1, "maximum": 100}),
            query("after", {"type": "string"}),
            LANGUAGE,
            WITH_MESSAGES,
        ],
    ),
)
ROUTES = (ISSUE, REVOKE, JOIN, JOIN_BY_ID, LEAVE, LOBBY, MY_GAMES)

STRING = {"type": "string"}
TIME = {"type": "string", "format": "date-time"}


def schemas() -> dict[str, Any]:
    """The answers of the players' routes."""
    return {
        "PlayerToken": {
            "type": "object",
            "properties": {"token": STRING, "playerId": STRING, "expiresAt": TIME},
            "required": ["token", "playerId", "expiresAt"],
        },
        "PlayerTokensRevoked": {
            "type": "object",
            "properties": {"playerId": STRING, "revokedBefore": TIME},
            "required": ["playerId", "revokedBefore"],
        },
        "JoinedGame": {
            "type": "object",
            "properties": {"seat": {"type": "integer"}, "game": ref("Game")},
            "required": ["seat", "game"],
        },
        "Lobby": {
            "type": "object",
            "properties": {
                "gameId": STRING,
                "joinCode": {"type": ["string", "null"]},
                "inviteUrl": {"type": ["string", "null"]},
                "openSeats": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "seat": {"type": "integer"},
                            "reserved": {"type": "boolean"},
                        },
                        "required": ["seat", "reserved"],
                    },
                },
                "started": {"type": "boolean"},
            },
            "required": ["gameId", "joinCode", "inviteUrl", "openSeats", "started"],
        },
    }
