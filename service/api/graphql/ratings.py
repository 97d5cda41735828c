"""Ratings over GraphQL (docs/api.md, "Ratings"): `leaderboard`, `rating` and
`ratingPolicy`, and `setRatingPolicy`, beside the REST mirror's `GET /v1/leaderboards/{kind}`,
`GET /v1/players/{playerId}/ratings` and `/v1/rating-policy`. Every one acts for the
caller's tenant (X-API-Key) and sees that tenant's players only (service/ratings/reads.py)."""

from __future__ import annotations

from collections.abc import Awaitable
from datetime import datetime
from typing import Any, TypeVar

import strawberry
from strawberry.types import Info

from service.api.graphql.errors import api_error
from service.api.graphql.types import GameKind, PageInfo, context_api_key, context_service
from service.ratings import reads
from service.ratings.ledger import Rating as Rated
from service.refusals import Refused

T = TypeVar("T")


@strawberry.type(
    description="A player's rating in one kind of game (openskill, Plackett-Luce): a skill "
    "`mu` known to within `sigma`; the leaderboards sort by `ordinal`, mu - 3 sigma."
)
class Rating:
    player_id: str = strawberry.field(name="playerId")
    kind: GameKind
    mu: float
    sigma: float
    ordinal: float = strawberry.field(description="mu - 3 sigma: the leaderboard's order.")
    games: int = strawberry.field(description="The rated games it counts.")
    updated_at: datetime = strawberry.field(name="updatedAt")


@strawberry.type
class RatingEdge:
    cursor: str
    node: Rating


@strawberry.type
class RatingConnection:
    edges: list[RatingEdge]
    page_info: PageInfo


@strawberry.type(description="Which of the tenant's finished games are rated.")
class RatingPolicy:
    max_takebacks: int = strawberry.field(
        name="maxTakebacks",
        description="A game with more takebacks than this is not rated (0, the default: any "
        "takeback leaves it unrated).",
    )


def rating(rated: Rated) -> Rating:
    return Rating(
        player_id=rated.player_id,
        kind=GameKind(rated.kind),
        mu=rated.mu,
        sigma=rated.sigma,
        ordinal=rated.ordinal,
        games=rated.games,
        updated_at=rated.updated_at,
    )


async def _asked(awaitable: Awaitable[T]) -> T:
    try:
        return await awaitable
    except Refused as refused:
        raise api_error(refused) from None


@strawberry.type
class RatingQueries:
    @strawberry.field(
        description="The tenant's (X-API-Key) players of one kind, best first (ordinal, then "
        "player id). A Relay connection: `first` up to 100, `after` a cursor."
    )
    async def leaderboard(
        self, info: Info[Any, Any], kind: GameKind, first: int = 20, after: str | None = None
    ) -> RatingConnection:
        service, key = context_service(info), context_api_key(info)
        board = await _asked(reads.leaderboard(service, key, kind.value, first, after))
        return RatingConnection(
            edges=[RatingEdge(cursor=cursor, node=rating(r)) for cursor, r in board.ratings],
            page_info=PageInfo(has_next_page=board.has_next, end_cursor=board.end_cursor),
        )

    @strawberry.field(
        description="A player's rating in one kind among the tenant's (X-API-Key) games; "
        "null until one of its games is rated."
    )
    async def rating(
        self,
        info: Info[Any, Any],
        player_id: str,
        kind: GameKind,
    ) -> Rating | None:
        service, key = context_service(info), context_api_key(info)
        found = await _asked(reads.ratings(service, key, player_id, kind.value))
        return rating(found[0]) if found else None

    @strawberry.field(name="ratingPolicy", description="The tenant's (X-API-Key) rating policy.")
    async def rating_policy(self, info: Info[Any, Any]) -> RatingPolicy:
        service, key = context_service(info), context_api_key(info)
        return RatingPolicy(max_takebacks=await _asked(reads.max_takebacks(service, key)))


@strawberry.type
class RatingMutations:
    @strawberry.mutation(
        name="setRatingPolicy",
        description="Sets the tenant's (X-API-Key) rating policy for the games rated from now "
        "on: `maxTakebacks` 0 to 1000.",
    )
    async def set_rating_policy(self, info: Info[Any, Any], max_takebacks: int) -> RatingPolicy:
        service, key = context_service(info), context_api_key(info)
        count = await _asked(reads.set_max_takebacks(service, key, max_takebacks))
        return RatingPolicy(max_takebacks=count)
