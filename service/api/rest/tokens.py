"""A seat's token, issued again by the game's tenant."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api.edge.parsing import natural
from service.api.edge.problems import Problem
from service.api.rest.http import Rest, json_response
from service.api.rest.operation import (
    GAME_ID,
    GAME_ROUTE,
    TENANT,
    Operation,
    RestRoute,
    ok,
    problems,
    ref,
)


async def reissue_token(rest: Rest, request: Request) -> Response:
    seat = natural(request.path_params["seat"])
    if seat is None:
        raise Problem("BAD_REQUEST", "the seat is a whole number, e.g. /seats/1/token")
    game_id = request.path_params["game_id"]
    token, player_id = await rest.service.reissue_token(game_id, rest.tenant_of(request), seat)
    body = {"seat": seat, "token": token, "playerId": player_id}
    return json_response(body, headers={"cache-control": "no-store"})


SEAT = {"name": "seat", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0}}

REISSUE = RestRoute(
    "/v1/games/{game_id}/seats/{seat}/token",
    "POST",
    reissue_token,
    Operation(
        "reissueSeatToken",
        "The game's tenant (X-API-Key) gets a new token for a human seat; the seat's earlier "
        "token stops working at once. Another tenant's key: 404; a bot's seat: 403 (it has no "
        "token); a seat the game lacks: 422.",
        TENANT,
        {
            **ok(ref("SeatCredential"), "the seat's new token, shown once"),
            **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN", "BAD_USER_INPUT"),
        },
        parameters=[GAME_ID, SEAT],
        layout="parameters",
    ),
)
