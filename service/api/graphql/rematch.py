"""GraphQL for rematches and challenges (docs/api.md, "Rematch and challenges"): the queries
and mutations that operations.py's Query and Mutation inherit.

A challenge is made by a player (a player token) or by the tenant (X-API-Key) naming its
challenger; the challenged accept with joinGame and decline with declineChallenge. A rematch
is offered, accepted and declined by a seat of the game that is over (its seat token, its
player's token, or the tenant acting as it with asSeat). Refusals are GraphQL errors with
`extensions.code` (FORBIDDEN, GAME_NOT_OVER, GAME_OVER, NOT_FOUND, BAD_USER_INPUT, ...).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from service.api.graphql.errors import api_error
from service.api.graphql.types import (
    AS_SEAT,
    SPECTATOR_DELAY,
    ClockInput,
    Game,
    GameKind,
    Rematch,
    TakebackPolicy,
    clock_option,
    context_caller,
    context_service,
)
from service.core.players import challenges, rematch
from service.refusals import Refused


@strawberry.input(
    description="A challenge: createGame's options for a game of the challenger "
    "(seat 0) and the challenged players (seats 1, 2, ... in this order)."
)
class ChallengeInput:
    kind: GameKind
    opponents: list[str] = strawberry.field(
        description="The challenged player ids, 1 to 4, distinct, not the challenger's."
    )
    challenger_id: str | None = strawberry.field(
        default=None,
        description="With the tenant's X-API-Key: the challenger's player id (a player token "
        "challenges as its own player).",
    )
    options: JSON | None = None
    clock: ClockInput | None = None
    spectator_delay: int = strawberry.field(default=0, description=SPECTATOR_DELAY)
    takebacks: TakebackPolicy = TakebackPolicy.NONE
    expires_in_seconds: int = strawberry.field(
        default=challenges.DEFAULT_EXPIRY,
        description="Not accepted by all this long after create, it lapses: ABANDONED.",
    )


@strawberry.type
class ChallengePayload:
    game: Game
    seat_token: str = strawberry.field(description="The challenger's seat (0) token.")
    expires_at: datetime


@strawberry.type(description="A challenge waiting for the bearer's player.")
class PendingChallenge:
    seat: int = strawberry.field(description="The seat kept for the player: joinGame takes it.")
    game: Game


@strawberry.type(description="A seat of a rematch, taken.")
class RematchSeat:
    seat: int
    seat_token: str | None = strawberry.field(
        description="The new seat's token, for a seat taken without a player token (null with "
        "one: the player plays with its player token)."
    )
    game: Game


@strawberry.type
class RematchQueries:
    @strawberry.field(
        name="myChallenges",
        description="The challenges waiting for the bearer's player (a player token), newest "
        "first (up to 100): accept with joinGame, decline with declineChallenge.",
    )
    async def my_challenges(self, info: Info[Any, Any]) -> list[PendingChallenge]:
        try:
            found = await context_service(info).my_challenges(context_caller(info))
        except Refused as refused:
            raise api_error(refused) from None
        return [PendingChallenge(seat=seat, game=Game(loaded=loaded)) for loaded, seat in found]

    @strawberry.field(
        description="The rematch of a game that is over, once a seat offered it (null before), "
        "for whoever may read the game."
    )
    async def rematch(
        self,
        info: Info[Any, Any],
        game_id: strawberry.ID,
        as_seat: Annotated[int | None, strawberry.argument(description=AS_SEAT)] = None,
    ) -> Rematch | None:
        try:
            found = await context_service(info).rematch_of(
                context_caller(info, as_seat), str(game_id)
            )
        except Refused as refused:
            raise api_error(refused) from None
        return None if found is None else Rematch(game_id=strawberry.ID(found))


@strawberry.type
class RematchMutations:
    @strawberry.mutation(
        name="createChallenge",
        description="A game of the challenger (seat 0) with a seat reserved for each challenged "
        "player, who accepts with joinGame; it starts when all have, never fills with bots, "
        "and lapses (ABANDONED) after expiresInSeconds.",
    )
    async def create_challenge(
        self, info: Info[Any, Any], input: ChallengeInput
    ) -> ChallengePayload:
        asked = challenges.Challenge(
            kind=input.kind.value,
            opponents=list(input.opponents),
            options=input.options,
            clock=clock_option(input.clock),
            spectator_delay=input.spectator_delay,
            expires_in=input.expires_in_seconds,
        )
        try:
            loaded, token = await context_service(info).create_challenge(
                context_caller(info), asked, input.takebacks.value, input.challenger_id
            )
        except Refused as refused:
            raise api_error(refused) from None
        expires = loaded.record.deadline or loaded.record.created
        return ChallengePayload(
            game=Game(loaded=loaded),
            seat_token=token,
            expires_at=datetime.fromtimestamp(expires, UTC),
        )

    @strawberry.mutation(
        name="declineChallenge",
        description="One of the challenge's players (a player token) ends it for everyone while "
        "it waits: ABANDONED.",
    )
    async def decline_challenge(self, info: Info[Any, Any], game_id: strawberry.ID) -> Game:
        try:
            loaded = await context_service(info).decline_challenge(
                context_caller(info), str(game_id)
            )
        except Refused as refused:
            raise api_error(refused) from None
        return Game(loaded=loaded)

    @strawberry.mutation(
        name="offerRematch",
        description="A seat of a game that is over offers the same game again: the rematch is "
        "created by the first offer (two at once get the same one) and the offerer's seat taken; "
        "the others take theirs (joinGame, acceptRematch). GAME_NOT_OVER before the end.",
    )
    async def offer_rematch(
        self,
        info: Info[Any, Any],
        game_id: strawberry.ID,
        expires_in_seconds: int = rematch.DEFAULT_EXPIRY,
        as_seat: Annotated[int | None, strawberry.argument(description=AS_SEAT)] = None,
    ) -> RematchSeat:
        try:
            loaded, seat, token = await context_service(info).offer_rematch(
                context_caller(info, as_seat), str(game_id), expires_in_seconds
            )
        except Refused as refused:
            raise api_error(refused) from None
        return RematchSeat(seat=seat, seat_token=token, game=Game(loaded=loaded))

    @strawberry.mutation(
        name="acceptRematch",
        description="A seat of the game that is over (`gameId`) takes its seat of the rematch "
        "offered; with the old seat's token (or the tenant's asSeat) the answer holds the new "
        "seat's token, the same on every call.",
    )
    async def accept_rematch(
        self,
        info: Info[Any, Any],
        game_id: strawberry.ID,
        as_seat: Annotated[int | None, strawberry.argument(description=AS_SEAT)] = None,
    ) -> RematchSeat:
        try:
            loaded, seat, token = await context_service(info).accept_rematch(
                context_caller(info, as_seat), str(game_id)
            )
        except Refused as refused:
            raise api_error(refused) from None
        return RematchSeat(seat=seat, seat_token=token, game=Game(loaded=loaded))

    @strawberry.mutation(
        name="declineRematch",
        description="A seat of the game that is over (`gameId`) ends its rematch for everyone "
        "while it waits: ABANDONED. Answers the rematch.",
    )
    async def decline_rematch(
        self,
        info: Info[Any, Any],
        game_id: strawberry.ID,
        as_seat: Annotated[int | None, strawberry.argument(description=AS_SEAT)] = None,
    ) -> Game:
        try:
            loaded = await context_service(info).decline_rematch(
                context_caller(info, as_seat), str(game_id)
            )
        except Refused as refused:
            raise api_error(refused) from None
        return Game(loaded=loaded)
