"""The GraphQL adapter (DESIGN.md, "The public API"): the root Query, Mutation and Subscription
(the game types are in service/api/game_types.py).

Resolvers only parse, authorize through `Tables` and shape the answer; rules live in the engine.
Rule violations are `MoveRejected` values; a store outage is a GraphQL error with
`extensions.code = "UNAVAILABLE"`; every other unexpected error is masked.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator
from datetime import UTC
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import msgspec
import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from service.api import typed
from service.api.errors import ApiError, unavailable
from service.api.game_types import (
    REASON,
    REREAD_ATTEMPTS,
    RULE,
    ApplyMoveInput,
    ApplyMoveResult,
    ClockInput,
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
    context_tables,
    context_tenant,
    context_token,
)
from service.api.hints import HintsBusy
from service.api.listing import BadListing, list_games
from service.api.listing import GameFilter as ListingFilter
from service.api.table import Applied, Rejected, Table, Unauthorized
from service.api.tables import Tables
from service.api.webhooks import WebhookMutations, WebhookQueries
from service.engine import BadSetup, games
from service.engine import RejectCode as EngineRejectCode
from service.store import StoreUnavailable
from service.store.events import RESYNC

if TYPE_CHECKING:  # generated from the Structs at import (typed.py): opaque to mypy
    TypedMoveInput: TypeAlias = Any
else:
    from service.api.typed import TypedMoveInput


@strawberry.type
class Query(WebhookQueries):
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
            )
            for kind, game in games().items()
        ]

    @strawberry.field(description="A game as the bearer's seat sees it, else as a spectator.")
    async def game(self, info: Info[Any, Any], id: strawberry.ID) -> Game | None:
        try:
            table = await context_tables(info).read(str(id), context_token(info))
        except StoreUnavailable:
            raise unavailable() from None
        except Unauthorized:
            raise ApiError("UNAUTHORIZED", "that token is not a seat of this game") from None
        return Game(table=table) if table is not None else None

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
        tenant = context_tenant(info)
        if tenant is None:
            raise ApiError("UNAUTHORIZED", "listing games needs the tenant's API key (X-API-Key)")
        only = _listing(filter or GameFilter())
        try:
            page = await list_games(context_tables(info).store, tenant, only, first, after)
        except BadListing as exc:
            raise ApiError("BAD_USER_INPUT", exc.message) from None
        except StoreUnavailable:
            raise unavailable() from None
        return GameConnection(
            edges=[
                GameEdge(cursor=cursor, node=Game(table=table)) for cursor, table in page.tables
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
    ) -> Suggestion:
        return await _suggest(info, game_id, strategy, budget_ms, iterations, seed)

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
    ) -> MoveValidation:
        chosen = _move(move, typed_move)
        try:
            if isinstance(chosen, Rejected):
                rejected: Rejected | None = chosen
            else:
                rejected = await context_tables(info).validate(
                    str(game_id), context_token(info), chosen
                )
        except StoreUnavailable:
            raise unavailable() from None
        if rejected is None:
            return MoveValidation(valid=True, code=None, message="legal now", current_version=None)
        return MoveValidation(
            valid=False,
            code=rejected.code,
            message=rejected.message,
            current_version=rejected.current_version,
            reason=rejected.reason,
            rule=rejected.rule,
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
    game_id: strawberry.ID,
    strategy: Strategy,
    budget_ms: int | None,
    iterations: int | None,
    seed: int | None,
) -> Suggestion:
    try:
        found = await context_tables(info).suggest(
            str(game_id), context_token(info), strategy.value, budget_ms, iterations, seed
        )
    except StoreUnavailable:
        raise unavailable() from None
    except HintsBusy as busy:
        raise ApiError(busy.code, busy.message) from None
    if isinstance(found, Rejected):
        raise ApiError(found.code.value, found.message)
    seat, move, label = found
    return Suggestion(seat=seat, strategy=strategy, move=move, label=label, typed_move=move)


def _move(move: JSON | None, typed_move: TypedMoveInput | None) -> object | Rejected:
    """The JSON move of an applyMove or validateMove: from `move` or from `typedMove`."""
    if (move is None) == (typed_move is None):
        return Rejected(EngineRejectCode.MALFORMED_MOVE, "give exactly one of move and typedMove")
    if move is not None:
        return move
    try:
        return typed.move_json(typed_move)
    except typed.TypedInputError as exc:
        return Rejected(EngineRejectCode.MALFORMED_MOVE, str(exc))


@strawberry.type
class MoveValidation:
    valid: bool
    code: RejectCode | None  # type: ignore[valid-type]
    message: str
    current_version: int | None
    reason: str | None = strawberry.field(default=None, description=REASON)
    rule: str | None = strawberry.field(default=None, description=RULE)


def _defaults(options_type: type[Any]) -> dict[str, Any]:
    defaults: dict[str, Any] = msgspec.to_builtins(options_type())
    return defaults


@strawberry.type
class Mutation(WebhookMutations):
    @strawberry.mutation(name="createGame")
    async def create_game(self, info: Info[Any, Any], input: CreateGameInput) -> CreateGamePayload:
        request = info.context.get("request")
        api_key = request.headers.get("x-api-key") if request is not None else None
        try:
            bots = {bot.seat: bot.strategy.value for bot in input.bots or []}
            table, tokens = await context_tables(info).create(
                input.kind.value,
                input.players,
                input.seed,
                _options(input),
                api_key,
                bots,
                input.player_ids,
                _clock(input.clock),
            )
        except BadSetup as exc:
            raise ApiError("BAD_USER_INPUT", exc.message) from None
        except Unauthorized:
            raise ApiError("UNAUTHORIZED", "creating games needs an API key (X-API-Key)") from None
        except StoreUnavailable:
            raise unavailable() from None
        return CreateGamePayload(
            game=Game(table=table),
            seats=[
                SeatCredential(seat=seat, token=token, player_id=_player(table, seat))
                for seat, token in tokens.items()
            ],
        )

    @strawberry.mutation(
        description="The bearer's seat resigns: the game is FINISHED with an `outcome` naming "
        "it. GAME_OVER when it is over already."
    )
    async def resign(
        self, info: Info[Any, Any], game_id: strawberry.ID, expected_version: int | None = None
    ) -> ApplyMoveResult:
        try:
            result = await context_tables(info).resign(
                str(game_id), context_token(info), expected_version
            )
        except StoreUnavailable:
            raise unavailable() from None
        return _ended(result)

    @strawberry.mutation(
        name="abandonGame",
        description="The game's tenant (X-API-Key) calls it off: ABANDONED, no winners. "
        "Another tenant's key gets NOT_FOUND; GAME_OVER when it is over already.",
    )
    async def abandon_game(self, info: Info[Any, Any], game_id: strawberry.ID) -> ApplyMoveResult:
        try:
            result = await context_tables(info).abandon(str(game_id), context_tenant(info))
        except StoreUnavailable:
            raise unavailable() from None
        return _ended(result)

    @strawberry.mutation(name="applyMove")
    async def apply_move(self, info: Info[Any, Any], input: ApplyMoveInput) -> ApplyMoveResult:
        move = _move(input.move, input.typed_move)
        if isinstance(move, Rejected):
            return MoveRejected(code=move.code, message=move.message, current_version=None)
        try:
            result = await context_tables(info).apply(
                str(input.game_id),
                context_token(info),
                move,
                input.expected_version,
                input.idempotency_key,
            )
        except StoreUnavailable:
            raise unavailable() from None
        if isinstance(result, Applied):
            return MoveApplied(game=Game(table=result.table), replayed=result.replayed)
        return MoveRejected(
            code=result.code,
            message=result.message,
            current_version=result.current_version,
            reason=result.reason,
            rule=result.rule,
        )


def _ended(result: Applied | Rejected) -> ApplyMoveResult:
    if isinstance(result, Applied):
        return MoveApplied(game=Game(table=result.table), replayed=False)
    return MoveRejected(
        code=result.code, message=result.message, current_version=result.current_version
    )


def _clock(clock: ClockInput | None) -> dict[str, Any] | None:
    """The clock as the JSON create option REST takes too (clocks.parse_clock checks it)."""
    if clock is None:
        return None
    raw: dict[str, Any] = {
        "incrementSeconds": clock.increment_seconds,
        "onTimeout": clock.on_timeout.value,
    }
    if clock.per_decision_seconds is not None:
        raw["perDecisionSeconds"] = clock.per_decision_seconds
    if clock.per_seat_total_seconds is not None:
        raw["perSeatTotalSeconds"] = clock.per_seat_total_seconds
    return raw


def _player(table: Table, seat: int) -> str | None:
    ids = table.record.player_ids
    return ids[seat] if seat < len(ids) else None


def _options(input: CreateGameInput) -> object:
    """The JSON options of a createGame: from `options` or from `typedOptions`."""
    if input.typed_options is None:
        return input.options
    if input.options is not None:
        raise BadSetup("give options or typedOptions, not both")
    try:
        return typed.options_json(input.typed_options, input.kind.value)
    except typed.TypedInputError as exc:
        raise BadSetup(str(exc)) from None


@strawberry.type
class Subscription:
    @strawberry.subscription(
        name="gameEvents",
        description="The game's current version, then every new one, in order. Versions are "
        "consecutive: on a gap, catch up with `history(after:)`. The stream completes after "
        "the FINISHED or ABANDONED event (at once for a game that is over). Authenticate with "
        '`{"authorization": "Bearer <token>"}` in the connection_init payload.',
    )
    async def game_events(
        self, info: Info[Any, Any], game_id: strawberry.ID
    ) -> AsyncGenerator[GameEvent, None]:
        tables, drop = context_tables(info), info.context.get("drop_slow_consumer", _ignore)
        try:
            async with tables.store.events(str(game_id), drop) as events:
                table = await tables.read(str(game_id), context_token(info))
                if table is None:
                    raise ApiError("NOT_FOUND", f"no game {str(game_id)!r}")
                last, status = table.record.version, GameStatus(table.status())
                yield GameEvent(game_id=game_id, version=last, status=status)
                while status is GameStatus.ACTIVE:  # nothing follows a game's end
                    data = await events.next()
                    if data == RESYNC:  # events were lost with the connection: read again
                        table = await _reread(tables, str(game_id), context_token(info))
                        if table is None:
                            return
                        event: dict[str, Any] = {
                            "version": table.record.version,
                            "status": table.status(),
                        }
                    else:
                        event = json.loads(data)
                    if event["version"] <= last:
                        continue
                    last, status = event["version"], GameStatus(event["status"])
                    yield GameEvent(game_id=game_id, version=last, status=status)
        except StoreUnavailable:
            raise unavailable() from None
        except Unauthorized:
            raise ApiError("UNAUTHORIZED", "that token is not a seat of this game") from None


def _ignore() -> None:
    pass


async def _reread(tables: Tables, game_id: str, token: str | None) -> Table | None:
    """The game after the event connection came back. The pool may still hold connections
    that the outage broke, each failing once (commands are never retried blindly), so this
    read, safe to repeat, is tried a few times."""
    for attempt in range(REREAD_ATTEMPTS):
        try:
            return await tables.read(game_id, token)
        except StoreUnavailable:
            if attempt == REREAD_ATTEMPTS - 1:
                raise
            await asyncio.sleep(0.1 * (attempt + 1))
    return None
