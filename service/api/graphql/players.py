"""GraphQL for players (docs/api.md, "Players"): player tokens, joining and leaving open
seats, a game's lobby and a player's own games; the queries and mutations that
operations.py's Query and Mutation inherit.

A tenant (X-API-Key) issues and revokes player tokens; a player token (Authorization: Bearer)
joins, leaves and lists its own games. Refusals are GraphQL errors with `extensions.code`
(GAME_FULL, NOT_FOUND, UNAUTHORIZED, FORBIDDEN, BAD_USER_INPUT, ...).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import strawberry
from strawberry.types import Info

from service.api.graphql.errors import api_error
from service.api.graphql.types import (
    Game,
    GameConnection,
    GameEdge,
    GameKind,
    GameStatus,
    PageInfo,
    context_caller,
    context_service,
    context_tenant,
)
from service.core.players.tokens import DEFAULT_TTL, looks_like_player_token
from service.core.reads.listing import GameFilter as ListingFilter
from service.refusals import Refused


@strawberry.type(description="A player token: Authorization: Bearer <token> for that player.")
class PlayerToken:
    token: str
    player_id: str
    expires_at: datetime


@strawberry.type
class PlayerTokensRevoked:
    player_id: str
    revoked_before: datetime = strawberry.field(
        description="Every token of the player issued before this time is refused from now on."
    )


@strawberry.type
class OpenSeat:
    seat: int
    reserved: bool = strawberry.field(description="Kept for one player id (reservedFor).")


@strawberry.type(description="How players find and fill a game's open seats.")
class Lobby:
    game_id: strawberry.ID
    join_code: str | None = strawberry.field(
        description="The code joinGame takes; shown to the game's tenant and its players."
    )
    invite_url: str | None = strawberry.field(
        description="RULES_INVITE_BASE_URL followed by the code (null without either)."
    )
    open_seats: list[OpenSeat]
    started: bool = strawberry.field(
        description="Every seat is filled: moves are taken (before: GAME_NOT_STARTED)."
    )


@strawberry.type
class JoinedGame:
    seat: int = strawberry.field(description="The seat the player holds (joined or held already).")
    game: Game


@strawberry.type
class PlayerQueries:
    @strawberry.field(
        description="A game's join code, invite link and open seats. NOT_FOUND: no such game."
    )
    async def lobby(self, info: Info[Any, Any], game_id: strawberry.ID) -> Lobby:
        service = context_service(info)
        try:
            lobby = await service.lobby(str(game_id))
            shown = await _caller_tenant(info) == lobby.tenant
        except Refused as refused:
            raise api_error(refused) from None
        return Lobby(
            game_id=strawberry.ID(lobby.game_id),
            join_code=lobby.code if shown else None,
            invite_url=lobby.invite_url if shown else None,
            open_seats=[OpenSeat(seat=s, reserved=r) for s, r in lobby.open_seats],
            started=lobby.started,
        )

    @strawberry.field(
        name="myGames",
        description="The games the bearer's player (a player token) sits in or is awaited in, "
        "newest first, each as its seat sees it. A Relay connection: `first` up to 100.",
    )
    async def my_games(
        self,
        info: Info[Any, Any],
        status: GameStatus | None = None,
        kind: GameKind | None = None,
        first: int = 20,
        after: str | None = None,
    ) -> GameConnection:
        only = ListingFilter(
            status=None if status is None else status.value,
            kind=None if kind is None else kind.value,
        )
        try:
            page = await context_service(info).player_games(
                context_caller(info), only, first, after
            )
        except Refused as refused:
            raise api_error(refused) from None
        return GameConnection(
            edges=[
                GameEdge(cursor=cursor, node=Game(loaded=loaded)) for cursor, loaded in page.games
            ],
            page_info=PageInfo(has_next_page=page.has_next, end_cursor=page.end_cursor),
        )


async def _caller_tenant(info: Info[Any, Any]) -> str | None:
    """The tenant the caller speaks for: its player token's, else its X-API-Key's."""
    caller = context_caller(info)
    if not looks_like_player_token(caller.token):
        return context_tenant(info)
    return (await context_service(info).player_of(caller)).tenant


@strawberry.type
class PlayerMutations:
    @strawberry.mutation(
        name="issuePlayerToken",
        description="The tenant (X-API-Key) gets a player token for one of its player ids, "
        'good for `ttlSeconds` (60 to 86400). docs/api.md, "Players", also shows how a '
        "tenant's backend signs its own.",
    )
    def issue_player_token(
        self, info: Info[Any, Any], player_id: str, ttl_seconds: int = DEFAULT_TTL
    ) -> PlayerToken:
        try:
            token, expires = context_service(info).issue_player_token(
                context_tenant(info), player_id, ttl_seconds
            )
        except Refused as refused:
            raise api_error(refused) from None
        return PlayerToken(
            token=token, player_id=player_id, expires_at=datetime.fromtimestamp(expires, UTC)
        )

    @strawberry.mutation(
        name="revokePlayerTokens",
        description="The tenant (X-API-Key) revokes every token of the player issued until now, "
        "on every replica from the next request on.",
    )
    async def revoke_player_tokens(
        self, info: Info[Any, Any], player_id: str
    ) -> PlayerTokensRevoked:
        try:
            epoch = await context_service(info).revoke_player_tokens(
                context_tenant(info), player_id
            )
        except Refused as refused:
            raise api_error(refused) from None
        return PlayerTokensRevoked(
            player_id=player_id, revoked_before=datetime.fromtimestamp(epoch, UTC)
        )

    @strawberry.mutation(
        name="joinGame",
        description="The bearer's player (a player token) takes an open seat of the game its "
        "join `code` or `gameId` names; joining again answers the same seat. GAME_FULL: no "
        "seat is left for this player. The game starts when its last seat is filled.",
    )
    async def join_game(
        self,
        info: Info[Any, Any],
        code: str | None = None,
        game_id: strawberry.ID | None = None,
    ) -> JoinedGame:
        try:
            loaded, seat = await context_service(info).join_game(
                context_caller(info), None if game_id is None else str(game_id), code
            )
        except Refused as refused:
            raise api_error(refused) from None
        return JoinedGame(seat=seat, game=Game(loaded=loaded))

    @strawberry.mutation(
        name="leaveGame",
        description="The bearer's player gives back the seats it joined, before the game "
        "starts (after: resign). FORBIDDEN once it started.",
    )
    async def leave_game(self, info: Info[Any, Any], game_id: strawberry.ID) -> Game:
        try:
            loaded = await context_service(info).leave_game(context_caller(info), str(game_id))
        except Refused as refused:
            raise api_error(refused) from None
        return Game(loaded=loaded)
