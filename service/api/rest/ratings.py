"""Ratings over REST (docs/api.md, "Ratings"): a kind's leaderboard, a player's ratings and
the tenant's rating policy, for the caller's tenant (X-API-Key) only, as GraphQL's
`leaderboard`, `rating`, `ratingPolicy` and `setRatingPolicy` (service/ratings/reads.py)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from service.api.edge.parsing import natural
from service.api.edge.problems import Problem
from service.api.rest.http import Rest, json_response, read_body
from service.api.rest.operation import (
    TENANT,
    Operation,
    RestRoute,
    Schema,
    body,
    ok,
    problems,
    query,
    struct_schema,
)
from service.games import games
from service.ratings import reads
from service.ratings.ledger import MAX_PAGE, MAX_TAKEBACKS, Rating

PRIVATE = {"vary": "x-api-key"}
NO_BOARD, NO_RATING = "No such leaderboard", "No rating yet"


class RatingPolicyBody(msgspec.Struct, rename="camel", forbid_unknown_fields=True):
    max_takebacks: int


def rating_json(rating: Rating) -> dict[str, Any]:
    return {
        "playerId": rating.player_id,
        "kind": rating.kind,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "ordinal": rating.ordinal,
        "games": rating.games,
        "updatedAt": rating.updated_at.isoformat(),
    }


def _only(request: Request, known: set[str]) -> None:
    unknown = set(request.query_params.keys()) - known
    if unknown:
        raise Problem("BAD_REQUEST", f"unknown query parameters: {', '.join(sorted(unknown))}")


async def leaderboard(rest: Rest, request: Request) -> Response:
    _only(request, {"first", "after"})
    first = natural(request.query_params.get("first", "20"))
    if first is None:
        raise Problem("BAD_REQUEST", "first must be a whole number")
    kind, after = request.path_params["kind"], request.query_params.get("after")
    if kind not in games():
        raise Problem("NOT_FOUND", f"no leaderboard {kind[:100]!r}", title=NO_BOARD)
    key = request.headers.get("x-api-key")
    board = await reads.leaderboard(rest.service, key, kind, first, after)
    headers = dict(PRIVATE)
    if board.has_next and board.end_cursor is not None:
        query = urlencode({"first": first, "after": board.end_cursor})
        headers["link"] = f'</v1/leaderboards/{kind}?{query}>; rel="next"'
    answer = {
        "ratings": [rating_json(rating) for _, rating in board.ratings],
        "nextCursor": board.end_cursor if board.has_next else None,
    }
    return json_response(answer, headers=headers)


async def player_ratings(rest: Rest, request: Request) -> Response:
    _only(request, {"kind"})
    player_id, kind = request.path_params["player_id"], request.query_params.get("kind")
    key = request.headers.get("x-api-key")
    found = await reads.ratings(rest.service, key, player_id, kind)
    if not found:  # as GraphQL's rating is null
        raise Problem("NOT_FOUND", f"no rating of {player_id[:100]!r} yet", title=NO_RATING)
    return json_response({"ratings": [rating_json(r) for r in found]}, headers=PRIVATE)


async def rating_policy(rest: Rest, request: Request) -> Response:
    _only(request, set())
    count = await reads.max_takebacks(rest.service, request.headers.get("x-api-key"))
    return json_response({"maxTakebacks": count}, headers=PRIVATE)


async def set_rating_policy(rest: Rest, request: Request) -> Response:
    _only(request, set())
    asked: RatingPolicyBody = await read_body(request, RatingPolicyBody, rest.max_depth)
    key = request.headers.get("x-api-key")
    count = await reads.set_max_takebacks(rest.service, key, asked.max_takebacks)
    return json_response({"maxTakebacks": count}, headers=PRIVATE)


RATING: Schema = {
    "type": "object",
    "required": ["playerId", "kind", "mu", "sigma", "ordinal", "games", "updatedAt"],
    "properties": {
        "playerId": {"type": "string"},
        "kind": {"enum": list(games())},
        "mu": {"type": "number", "description": "The skill's mean (openskill, Plackett-Luce)."},
        "sigma": {"type": "number", "description": "Its uncertainty."},
        "ordinal": {"type": "number", "description": "mu - 3 sigma: the leaderboard's order."},
        "games": {"type": "integer", "description": "The rated games it counts."},
        "updatedAt": {"type": "string", "format": "date-time"},
    },
}
POLICY: Schema = {
    "type": "object",
    "required": ["maxTakebacks"],
    "properties": {"maxTakebacks": {"type": "integer", "minimum": 0, "maximum": MAX_TAKEBACKS}},
}
LINK = {"description": 'The next page: <url>; rel="next".', "schema": {"type": "string"}}

LEADERBOARD = RestRoute(
    "/v1/leaderboards/{kind}",
    "GET",
    leaderboard,
    Operation(
        "getLeaderboard",
        "The tenant's (X-API-Key) players of one kind, best first (ordinal, then player id); "
        "the next page's URL is in the Link header (rel=next).",
        TENANT,
        {
            "200": {
                **ok(
                    {
                        "type": "object",
                        "required": ["ratings", "nextCursor"],
                        "properties": {
                            "ratings": {"type": "array", "items": RATING},
                            "nextCursor": {"type": ["string", "null"]},
                        },
                    },
                    "a page of the leaderboard",
                )["200"],
                "headers": {"Link": LINK},
            },
            **problems("UNAUTHORIZED", "NOT_FOUND"),
        },
        parameters=[
            {"name": "kind", "in": "path", "required": True, "schema": {"enum": list(games())}},
            query("first", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE}),
            query("after", {"type": "string"}),
        ],
    ),
)
PLAYER_RATINGS = RestRoute(
    "/v1/players/{player_id}/ratings",
    "GET",
    player_ratings,
    Operation(
        "getPlayerRatings",
        "A player's ratings among the tenant's (X-API-Key) games, by kind; 404 until one of "
        "its games (of that kind) is rated.",
        TENANT,
        {
            **ok(
                {
                    "type": "object",
                    "required": ["ratings"],
                    "properties": {"ratings": {"type": "array", "items": RATING}},
                },
                "the player's ratings",
            ),
            **problems("UNAUTHORIZED", "NOT_FOUND"),
        },
        parameters=[
            {
                "name": "playerId",
                "in": "path",
                "required": True,
                "schema": {"type": "string", "maxLength": 128},
            },
            query("kind", {"enum": list(games())}),
        ],
    ),
)
POLICY_GET = RestRoute(
    "/v1/rating-policy",
    "GET",
    rating_policy,
    Operation(
        "getRatingPolicy",
        "The tenant's (X-API-Key) rating policy.",
        TENANT,
        {**ok(POLICY, "the policy"), **problems("UNAUTHORIZED")},
    ),
)
POLICY_PUT = RestRoute(
    "/v1/rating-policy",
    "PUT",
    set_rating_policy,
    Operation(
        "setRatingPolicy",
        "Sets the tenant's (X-API-Key) rating policy for the games rated from now on: a game "
        "with more takebacks than `maxTakebacks` is not rated.",
        TENANT,
        {**ok(POLICY, "the policy"), **problems("UNAUTHORIZED", "BAD_USER_INPUT")},
        request_body=body(struct_schema(RatingPolicyBody)),
    ),
)
ROUTES = (LEADERBOARD, PLAYER_RATINGS, POLICY_GET, POLICY_PUT)
