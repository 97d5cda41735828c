"""The GraphQL adapter's root Query, Mutation and Subscription (the game types are in
service/api/graphql/types.py).

Resolvers only parse, call the game service and shape the answer; rules live in the engine.
The service's refusals are translated once (errors.py): a refused decision is a
`MoveRejected` value, any other refusal a GraphQL error with its `extensions.code`; every
other unexpected error is masked (schema.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator
from datetime import UTC
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias, cast

import msgspec
import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from service.api.edge.localized import refusal_message
from service.api.graphql import struct_types
from service.api.graphql.errors import REJECT_CODES, api_error, public_code
from service.api.graphql.languages import LanguageQueries
from service.api.graphql.lobby import LobbyMutations, LobbyQueries, LobbySubscriptions
from service.api.graphql.players import PlayerMutations, PlayerQueries
from service.api.graphql.ratings import RatingMutations, RatingQueries
from service.api.graphql.records import RecordQueries
from service.api.graphql.rematch import RematchMutations, RematchQueries
from service.api.graphql.texts import Message, message
from service.api.graphql.types import (
    AS_SEAT,
    REASON,
    RULE,
    ApplyMoveInput,
    ApplyMoveResult,
    CreateGameInput,
    CreateGamePayload,
    Game,
    GameConnection,
    GameEdge,
    GameEvent,
    GameFilter,
    GameInfo,
    GameKind,
    GameStatus,
    MoveApplied,
    MoveRejected,
    PageInfo,
    PlayerCount,
    RejectCode,
    SeatCredential,
    Strategy,
    Suggestion,
    clock_option,
    context_api_key,
    context_caller,
    context_service,
    context_tenant,
)
from service.api.graphql.webhooks import WebhookMutations, WebhookQueries
from service.core import Caller, LoadedGame
from service.core.players.seating import OpenSeat
from service.core.reads.listing import GameFilter as ListingFilter
from service.games import games, versions
from service.refusals import Code, Refused
from service.store import StoreUnavailable, UnreadableRecord

if TYPE_CHECKING:  # generated from the Structs at import (struct_types.py): opaque to mypy
    TypedMoveInput: TypeAlias = Any
else:
    from service.api.graphql.struct_types import TypedMoveInput


@strawberry.type
class Query(
    WebhookQueries,
    RecordQueries,
    RatingQueries,
    PlayerQueries,
    LobbyQueries,
    LanguageQueries,
    RematchQueries,
):
    @strawberry.field(description="The games this server hosts.")
    def catalog(self) -> list[GameInfo]:
        return [
            GameInfo(
                kind=GameKind(kind),
                title=game.title,
                players=PlayerCount(min=game.min_players, max=game.max_players),
                options=cast(JSON, _defaults(game.options_type)),
                cards=cast(JSON, game.catalog()),
                typed_options=game.options_type(),
                rules_version=game.rules_version,
                rules_versions=list(versions()[kind]),
            )
            for kind, game in games().items()
        ]

    @strawberry.field(description="A game as the bearer's seat sees it, else as a spectator.")
    async def game(
        self,
        info: Info[Any, Any],
        id: strawberry.ID,
        as_seat: Annotated[int | None, strawberry.argument(description=AS_SEAT)] = None,
    ) -> Game | None:
        try:
            loaded = await context_service(info).read(str(id), context_caller(info, as_seat))
        except Refused as refused:
            if refused.code is Code.NOT_FOUND:
                return None
            raise api_error(refused) from None
        return Game(loaded=loaded)

    @strawberry.field(
        description="The games of the caller's tenant (X-API-Key), newest first, each seen "
        "as a spectator sees it. A Relay connection: `first` up to 100, `after` a cursor."
    )
    async def games(
        self,
        info: Info[Any, Any],
        filter: GameFilter | None = None,
        first: int = 20,
        after: str | None = None,
    ) -> GameConnection:
        only = _listing(filter or GameFilter())
        try:
            page = await context_service(info).list_games(context_tenant(info), only, first, after)
        except Refused as refused:
            raise api_error(refused) from None
        return GameConnection(
            edges=[
                GameEdge(cursor=cursor, node=Game(loaded=loaded)) for cursor, loaded in page.games
            ],
            page_info=PageInfo(has_next_page=page.has_next, end_cursor=page.end_cursor),
        )

    @strawberry.field(
        name="suggestMove",
        description="A hint for the bearer's seat: a legal move chosen by `strategy`. With "
        "`iterations` the answer is reproducible (same seed, same move); otherwise SEARCH "
        "thinks for `budgetMs` (default 100, capped by the server).",
    )
    async def suggest_move(
        self,
        info: Info[Any, Any],
        game_id: strawberry.ID,
        strategy: Strategy = Strategy.SEARCH,
        budget_ms: int | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        as_seat: Annotated[int | None, strawberry.argument(description=AS_SEAT)] = None,
    ) -> Suggestion:
        caller = context_caller(info, as_seat)
        return await _suggest(info, caller, game_id, strategy, budget_ms, iterations, seed)

    @strawberry.field(
        name="validateMove",
        description="A dry run of applyMove as the bearer's seat: would it be accepted now?",
    )
    async def validate_move(
        self,
        info: Info[Any, Any],
        game_id: strawberry.ID,
        move: JSON | None = None,
        typed_move: TypedMoveInput | None = None,
        as_seat: Annotated[int | None, strawberry.argument(description=AS_SEAT)] = None,
    ) -> MoveValidation:
        try:
            rejected = await context_service(info).validate(
                str(game_id), context_caller(info, as_seat), _move(move, typed_move)
            )
        except (StoreUnavailable, UnreadableRecord) as refused:
            raise api_error(refused) from None
        except Refused as refused:  # the move itself: no JSON, or typed fields that do not fit
            if refused.code not in REJECT_CODES:  # who asks (FORBIDDEN, BAD_INPUT): no verdict
                raise api_error(refused) from None
            rejected = refused
        if rejected is None:
            return MoveValidation(valid=True, code=None, message="legal now", current_version=None)
        return MoveValidation(
            valid=False,
            code=RejectCode(rejected.code.value),
            message=rejected.message,
            current_version=rejected.current_version,
            reason=rejected.reason,
            rule=rejected.rule,
            said=refusal_message(rejected, public_code(rejected)),
        )


def _listing(only: GameFilter) -> ListingFilter:
    created = only.created_after
    if created is not None and created.tzinfo is None:
        created = created.replace(tzinfo=UTC)  # a time without a zone is read as UTC
    return ListingFilter(
        status=None if only.status is None else only.status.value,
        kind=None if only.kind is None else only.kind.value,
        player_id=only.player_id,
        to_act_player_id=only.to_act_player_id,
        created_after=None if created is None else created.timestamp(),
    )


async def _suggest(
    info: Info[Any, Any],
    caller: Caller,
    game_id: strawberry.ID,
    strategy: Strategy,
    budget_ms: int | None,
    iterations: int | None,
    seed: int | None,
) -> Suggestion:
    try:
        seat, move, label = await context_service(info).suggest(
            str(game_id), caller, strategy.value, budget_ms, iterations, seed
        )
    except Refused as refused:
        raise api_error(refused) from None
    return Suggestion(seat=seat, strategy=strategy, move=move, label=label, typed_move=move)


def _move(move: JSON | None, typed_move: TypedMoveInput | None) -> object:
    """The JSON move of an applyMove or validateMove: from `move` or from `typedMove`."""
    if (move is None) == (typed_move is None):
        raise Refused(Code.MALFORMED_MOVE, "give exactly one of move and typedMove")
    if move is not None:
        return move
    try:
        return struct_types.move_json(typed_move)
    except struct_types.TypedInputError as exc:  # `false` for a move without fields: a wrong input
        raise Refused(Code.BAD_INPUT, str(exc)) from None


def _rejected(refused: Refused) -> MoveRejected:
    """A refused decision as the mutation's answer; any other refusal is an error."""
    if refused.code not in REJECT_CODES:
        raise api_error(refused) from None
    return MoveRejected(
        code=RejectCode(refused.code.value),
        message=refused.message,
        current_version=refused.current_version,
        reason=refused.reason,
        rule=refused.rule,
        said=refusal_message(refused, public_code(refused)),
    )


@strawberry.type
class MoveValidation:
    valid: bool
    code: RejectCode | None
    message: str
    current_version: int | None
    reason: str | None = strawberry.field(default=None, description=REASON)
    rule: str | None = strawberry.field(default=None, description=RULE)
    said: strawberry.Private[Any] = None

    @strawberry.field(
        description="`message` of a refusal as a catalog's message, in the language asked for; "
        "null when the move is legal."
    )
    def localized_message(self) -> Message | None:
        return None if self.said is None else message(self.said)


def _defaults(options_type: type[Any]) -> dict[str, Any]:
    defaults: dict[str, Any] = msgspec.to_builtins(options_type())
    return defaults


@strawberry.type
class Mutation(
    WebhookMutations, RatingMutations, PlayerMutations, LobbyMutations, RematchMutations
):
    @strawberry.mutation(name="createGame")
    async def create_game(self, info: Info[Any, Any], input: CreateGameInput) -> CreateGamePayload:
        try:
            bots = {bot.seat: bot.strategy.value for bot in input.bots or []}
            loaded, tokens = await context_service(info).create(
                input.kind.value,
                input.players,
                input.seed,
                _options(input),
                context_api_key(info),
                bots,
                input.player_ids,
                clock_option(input.clock),
                input.spectator_delay,
                input.takebacks.value,
                _open_seats(input),
                input.fill_with_bots_after_seconds,
                input.fill_with_bots_strategy.value,
            )
            lobby = await context_service(info).lobby(loaded.id) if input.open_seats else None
        except Refused as refused:
            raise api_error(refused) from None
        return CreateGamePayload(
            game=Game(loaded=loaded),
            seats=[
                SeatCredential(seat=seat, token=token, player_id=_player(loaded, seat))
                for seat, token in tokens.items()
            ],
            join_code=None if lobby is None else lobby.code,
            invite_url=None if lobby is None else lobby.invite_url,
        )

    @strawberry.mutation(
        description="The bearer's seat resigns: the game is FINISHED with an `outcome` naming "
        "it. GAME_OVER when it is over already."
    )
    async def resign(
        self,
        info: Info[Any, Any],
        game_id: strawberry.ID,
        expected_version: int | None = None,
        as_seat: Annotated[int | None, strawberry.argument(description=AS_SEAT)] = None,
    ) -> ApplyMoveResult:
        try:
            applied = await context_service(info).resign(
                str(game_id), context_caller(info, as_seat), expected_version
            )
        except Refused as refused:
            return _rejected(refused)
        return MoveApplied(game=Game(loaded=applied.game), replayed=False)

    @strawberry.mutation(
        name="abandonGame",
        description="The game's tenant (X-API-Key) calls it off: ABANDONED, no winners. "
        "Another tenant's key gets NOT_FOUND; GAME_OVER when it is over already.",
    )
    async def abandon_game(self, info: Info[Any, Any], game_id: strawberry.ID) -> ApplyMoveResult:
        try:
            applied = await context_service(info).abandon(str(game_id), context_tenant(info))
        except Refused as refused:
            return _rejected(refused)
        return MoveApplied(game=Game(loaded=applied.game), replayed=False)

    @strawberry.mutation(name="applyMove")
    async def apply_move(self, info: Info[Any, Any], input: ApplyMoveInput) -> ApplyMoveResult:
        try:
            applied = await context_service(info).apply(
                str(input.game_id),
                context_caller(info, input.as_seat),
                _move(input.move, input.typed_move),
                input.expected_version,
                input.idempotency_key,
            )
        except Refused as refused:
            return _rejected(refused)
        return MoveApplied(game=Game(loaded=applied.game), replayed=applied.replayed)

    @strawberry.mutation(
        name="requestTakeback",
        description="The bearer's seat takes back its last decision: the game goes back to the "
        "version just before it, as a new version (docs/api.md, section 13). Alone while the "
        "game's `takebacks` policy allows it; under WITH_CONSENT beyond that it becomes the "
        "game's `takebackRequest`, taken once every other human seat accepts. "
        "TAKEBACK_NOT_ALLOWED otherwise. Idempotent like applyMove.",
    )
    async def request_takeback(
        self,
        info: Info[Any, Any],
        game_id: strawberry.ID,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        as_seat: Annotated[int | None, strawberry.argument(description=AS_SEAT)] = None,
    ) -> ApplyMoveResult:
        try:
            applied = await context_service(info).request_takeback(
                str(game_id), context_caller(info, as_seat), expected_version, idempotency_key
            )
        except Refused as refused:
            return _rejected(refused)
        return MoveApplied(game=Game(loaded=applied.game), replayed=applied.replayed)

    @strawberry.mutation(
        name="answerTakeback",
        description="The bearer's seat accepts or declines the game's `takebackRequest`; the "
        "last acceptance takes it back. TAKEBACK_NOT_ALLOWED when none waits for this seat.",
    )
    async def answer_takeback(
        self,
        info: Info[Any, Any],
        game_id: strawberry.ID,
        accept: bool,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        as_seat: Annotated[int | None, strawberry.argument(description=AS_SEAT)] = None,
    ) -> ApplyMoveResult:
        try:
            applied = await context_service(info).answer_takeback(
                str(game_id),
                context_caller(info, as_seat),
                accept,
                expected_version,
                idempotency_key,
            )
        except Refused as refused:
            return _rejected(refused)
        return MoveApplied(game=Game(loaded=applied.game), replayed=applied.replayed)

    @strawberry.mutation(
        name="reissueSeatToken",
        description="The game's tenant (X-API-Key) gets a new token for a human seat; the "
        "seat's earlier token stops working at once. Another tenant's key: NOT_FOUND; a bot's "
        "seat: FORBIDDEN (it has no token); a seat the game does not have: BAD_USER_INPUT.",
    )
    async def reissue_seat_token(
        self, info: Info[Any, Any], game_id: strawberry.ID, seat: int
    ) -> SeatCredential:
        try:
            token, player_id = await context_service(info).reissue_token(
                str(game_id), context_tenant(info), seat
            )
        except Refused as refused:
            raise api_error(refused) from None
        return SeatCredential(seat=seat, token=token, player_id=player_id)


def _open_seats(input: CreateGameInput) -> list[OpenSeat]:
    return [OpenSeat(s.seat, s.reserved_for) for s in input.open_seats or []]


def _player(loaded: LoadedGame, seat: int) -> str | None:
    ids = loaded.record.player_ids
    return ids[seat] if seat < len(ids) else None


def _options(input: CreateGameInput) -> object:
    """The JSON options of a createGame: from `options` or from `typedOptions`."""
    if input.typed_options is None:
        return input.options
    if input.options is not None:
        raise Refused(Code.BAD_INPUT, "give options or typedOptions, not both")
    try:
        return struct_types.options_json(input.typed_options, input.kind.value)
    except struct_types.TypedInputError as exc:
        raise Refused(Code.BAD_INPUT, str(exc)) from None


@strawberry.type
class Subscription(LobbySubscriptions):
    @strawberry.subscription(
        name="gameEvents",
        description="The game's current version (or every version after `afterVersion`), then "
        "every new one, in order, each once, also across a broken event connection or a Redis "
        "failover on the server's side. After a dropped socket, subscribe again with "
        "`afterVersion` = the last version seen. The stream completes after the FINISHED or "
        "ABANDONED event (at once for a game that is over). Authenticate with "
        '`{"authorization": "Bearer <token>"}` in the connection_init payload. A spectator of a '
        "game with a `spectatorDelay` gets each version that many versions late, and every "
        "version left when the game ends.",
    )
    async def game_events(
        self,
        info: Info[Any, Any],
        game_id: strawberry.ID,
        after_version: Annotated[
            int | None,
            strawberry.argument(
                description="Replay every version after this one first (0: from the first; "
                "the game's last version of a game that is over: complete at once). "
                "BAD_USER_INPUT past the game's version (a delayed spectator's: the version "
                "it may see)."
            ),
        ] = None,
    ) -> AsyncGenerator[GameEvent, None]:
        service, drop = context_service(info), info.context.get("drop_slow_consumer", _ignore)
        versions = service.follow(str(game_id), context_caller(info), after_version, drop)
        try:
            async with contextlib.aclosing(versions):
                async for seen in versions:
                    status = GameStatus(seen.status)
                    yield GameEvent(
                        game_id=game_id,
                        version=seen.version,
                        status=status,
                        catching_up=seen.catching_up,
                    )
        except Refused as refused:
            raise api_error(refused) from None


def _ignore() -> None:
    pass
