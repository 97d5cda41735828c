"""Matchmaking over GraphQL (docs/api.md, "Matchmaking"): `enterMatchmaking`,
`leaveMatchmaking`, `matchmaking` and the `playerEvents` subscription, beside the REST mirror's
`/v1/matchmaking` and `GET /v1/players/{playerId}/events`. Each acts for one player: one the
tenant (X-API-Key) names with `playerId`, or a player token's own (Authorization: Bearer; its
`playerId` may be left out), through the core's `(tenant, player id)` operations
(service/core/lobby, `seeker`)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator
from datetime import UTC, datetime
from enum import Enum
from typing import Annotated, Any, cast

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from service.api.graphql.errors import api_error
from service.api.graphql.types import GameKind, context_service, context_tenant, context_token
from service.core.lobby import Lobby, Seeker, Status, lobby_for, seek, seeker
from service.ratings.ledger import Ledger
from service.refusals import Refused

PLAYER_ID = (
    "The tenant's own player id, with its X-API-Key; with a player token, its own player "
    "(left out, or the same id: another is FORBIDDEN)."
)
PlayerIdArgument = Annotated[str | None, strawberry.argument(description=PLAYER_ID)]


@strawberry.enum(description="Where a player is in matchmaking.")
class MatchmakingState(Enum):
    NONE = "NONE"
    WAITING = "WAITING"
    MATCHING = "MATCHING"
    MATCHED = "MATCHED"


@strawberry.enum(
    description="What a playerEvents frame tells: a match made for the player (MATCHED, with its "
    "seat token), a challenge waiting for it (CHALLENGE_RECEIVED), a rematch offered to it "
    "(REMATCH_OFFERED) or the start of a game it waited in (GAME_STARTED); these three carry "
    "the game and the player's seat, no token (the player plays with its player token)."
)
class PlayerEventType(Enum):
    MATCHED = "MATCHED"
    CHALLENGE_RECEIVED = "CHALLENGE_RECEIVED"
    REMATCH_OFFERED = "REMATCH_OFFERED"
    GAME_STARTED = "GAME_STARTED"


@strawberry.type(
    description="A player's matchmaking: NONE (not waiting), WAITING (since when, in which "
    "pool, with which rating window now), MATCHING (a match was made, its game is being "
    "created) or MATCHED (the game, the player's seat and its token; kept a day)."
)
class MatchmakingStatus:
    player_id: str = strawberry.field(name="playerId")
    state: MatchmakingState
    kind: GameKind | None = None
    players: int | None = None
    options: JSON | None = None
    rating: float | None = None
    waiting_since: datetime | None = strawberry.field(name="waitingSince", default=None)
    window: float | None = strawberry.field(
        default=None,
        description="The rating window now: the seeker fits players whose rating is this "
        "close and whose own window reaches back (it widens with waiting).",
    )
    game_id: strawberry.ID | None = strawberry.field(name="gameId", default=None)
    seat: int | None = None
    seat_token: str | None = strawberry.field(
        name="seatToken",
        default=None,
        description="The player's seat token in the matched game: hand it to that player only.",
    )
    type: PlayerEventType | None = strawberry.field(
        default=None,
        description="On playerEvents, what the frame tells (null: the status now, as the "
        "matchmaking query answers it). News (not MATCHED) carry the game, its kind, seat count "
        "and the player's seat, with `state` the player's matchmaking now.",
    )


@strawberry.input
class MatchmakingInput:
    kind: GameKind
    players: int = strawberry.field(description="The seats of the game to be matched into.")
    player_id: str | None = strawberry.field(name="playerId", default=None, description=PLAYER_ID)
    options: JSON | None = strawberry.field(
        default=None, description="The game's create options; the same options, one pool."
    )
    rating: float | None = strawberry.field(
        default=None,
        description="The player's rating for the window, given by the tenant (X-API-Key); "
        "left out, or sent with a player token (ignored), the player's mu for the kind from "
        "the ratings, else 25 (neutral).",
    )


def status_of(status: Status) -> MatchmakingStatus:
    since = status.waiting_since
    return MatchmakingStatus(
        player_id=status.player_id,
        state=MatchmakingState(status.state),
        kind=None if status.kind is None else GameKind(status.kind),
        players=status.players,
        options=cast(JSON, status.options),
        rating=status.rating,
        waiting_since=None if since is None else datetime.fromtimestamp(since, UTC),
        window=status.window,
        game_id=None if status.game_id is None else strawberry.ID(status.game_id),
        seat=status.seat,
        seat_token=status.seat_token,
        type=None if status.type is None else PlayerEventType(status.type),
    )


async def _lobby(info: Info[Any, Any], player_id: str | None) -> tuple[Lobby, Seeker]:
    service = context_service(info)
    asking = await seeker(
        service.player_tokens, context_token(info), context_tenant(info), player_id
    )
    return lobby_for(service.store, Ledger.of(service.store)), asking


@strawberry.type
class LobbyQueries:
    @strawberry.field(
        description="A player's matchmaking now (the tenant's key and `playerId`, or the "
        "player's own token)."
    )
    async def matchmaking(
        self,
        info: Info[Any, Any],
        player_id: PlayerIdArgument = None,
    ) -> MatchmakingStatus:
        try:
            lobby, asking = await _lobby(info, player_id)
            return status_of(await lobby.status(asking.tenant, asking.player_id))
        except Refused as refused:
            raise api_error(refused) from None


@strawberry.type
class LobbyMutations:
    @strawberry.mutation(
        name="enterMatchmaking",
        description="The player waits for a game of `kind` with `players` seats and these "
        "options, matched by rating (first in, first matched) with players whose windows fit; "
        "MATCHED at once when a group fits now. Entering the same pool again is the same seek "
        "(its place kept); another one while waiting: ALREADY_QUEUED (leave it first). "
        "Entering after a match starts a new seek.",
    )
    async def enter_matchmaking(
        self, info: Info[Any, Any], input: MatchmakingInput
    ) -> MatchmakingStatus:
        try:
            lobby, asking = await _lobby(info, input.player_id)
            rating = input.rating if asking.by_tenant else None  # a player's own is ignored
            asked = seek(input.kind.value, input.players, input.options, asking.player_id, rating)
            return status_of(await lobby.enter(asking.tenant, asked))
        except Refused as refused:
            raise api_error(refused) from None

    @strawberry.mutation(
        name="leaveMatchmaking",
        description="The player's seek is withdrawn; NOT_QUEUED when it waits in no pool "
        "(a match made is not undone).",
    )
    async def leave_matchmaking(
        self,
        info: Info[Any, Any],
        player_id: PlayerIdArgument = None,
    ) -> MatchmakingStatus:
        try:
            lobby, asking = await _lobby(info, player_id)
            return status_of(await lobby.leave(asking.tenant, asking.player_id))
        except Refused as refused:
            raise api_error(refused) from None


@strawberry.type
class LobbySubscriptions:
    @strawberry.subscription(
        name="playerEvents",
        description="A player's matchmaking now, then each match made for it (type MATCHED, "
        "with its seat token) and its news (a challenge received, a rematch offered, a game "
        "started: `type`), on any replica (the tenant's key, X-API-Key, on the upgrade request, "
        "and `playerId`; or the player's own token, on the upgrade or in connection_init).",
    )
    async def player_events(
        self,
        info: Info[Any, Any],
        player_id: PlayerIdArgument = None,
    ) -> AsyncGenerator[MatchmakingStatus, None]:
        drop = info.context.get("drop_slow_consumer", _ignore)
        try:
            lobby, asking = await _lobby(info, player_id)
            statuses = lobby.follow(asking.tenant, asking.player_id, drop)
            async with contextlib.aclosing(statuses):
                async for status in statuses:
                    yield status_of(status)
        except Refused as refused:
            raise api_error(refused) from None


def _ignore() -> None:
    pass
