"""The GraphQL adapter (DESIGN.md, "The public API"): types, resolvers, schema.

Resolvers only parse, authorize through `Tables` and shape the answer; rules live in the engine.
Rule violations are `MoveRejected` values; a store outage is a GraphQL error with
`extensions.code = "UNAVAILABLE"`; every other unexpected error is masked.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from enum import Enum
from typing import Annotated, Any, cast

import msgspec
import strawberry
from graphql import GraphQLError
from strawberry.scalars import JSON
from strawberry.types import Info

from service.api.hints import HintsBusy
from service.api.tables import Applied, Rejected, Table, Tables, Unauthorized
from service.engine import BadSetup, games
from service.engine import RejectCode as EngineRejectCode
from service.store import StoreUnavailable


@strawberry.enum
class GameKind(Enum):
    TREELINE = "TREELINE"
    TREELINGS = "TREELINGS"
    TREETOPIA = "TREETOPIA"
    TREE_LINED_AVENUE = "TREE_LINED_AVENUE"


@strawberry.enum
class GameStatus(Enum):
    ACTIVE = "ACTIVE"
    FINISHED = "FINISHED"


RejectCode = strawberry.enum(EngineRejectCode, name="RejectCode")


class ApiError(GraphQLError):
    """A typed GraphQL error: never masked, its code in `extensions.code`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, extensions={"code": code})


def unavailable() -> ApiError:
    return ApiError("UNAVAILABLE", "the game store is unavailable; retry shortly")


def _tables(info: Info[Any, Any]) -> Tables:
    tables: Tables = info.context["tables"]
    return tables


def _token(info: Info[Any, Any]) -> str | None:
    token: str | None = info.context.get("token")
    return token


@strawberry.type
class PlayerCount:
    min: int
    max: int


@strawberry.type
class GameInfo:
    kind: GameKind
    title: str
    players: PlayerCount
    options: JSON = strawberry.field(description="Create options with their defaults.")
    cards: JSON = strawberry.field(description="Static card data a client needs to draw.")


@strawberry.type
class LegalMove:
    move: JSON
    label: str


@strawberry.type
class ScoreEntry:
    seat: int
    points: int
    breakdown: JSON
    tiebreak: list[int]


@strawberry.type
class Scores:
    final: bool
    winners: list[int]
    entries: list[ScoreEntry]


@strawberry.type
class HistoryEntry:
    version: int
    seat: int | None
    move: JSON | None
    label: str
    forced: bool


@strawberry.type
class SeatCredential:
    seat: int
    token: str


@strawberry.type
class Game:
    table: strawberry.Private[Table]

    @strawberry.field
    def id(self) -> strawberry.ID:
        return strawberry.ID(self.table.id)

    @strawberry.field
    def kind(self) -> GameKind:
        return GameKind(self.table.record.kind)

    @strawberry.field
    def version(self) -> int:
        return self.table.record.version

    @strawberry.field
    def status(self) -> GameStatus:
        return GameStatus.FINISHED if self.table.record.finished else GameStatus.ACTIVE

    @strawberry.field
    def players(self) -> int:
        return self.table.record.players

    @strawberry.field(name="toAct")
    def to_act(self) -> list[int]:
        return self.table.to_act

    @strawberry.field(description="The caller's seat; null for a spectator.")
    def viewer(self) -> int | None:
        return self.table.viewer

    @strawberry.field(description="The table as the caller may see it.")
    def state(self) -> JSON:
        return cast(JSON, self.table.view())

    @strawberry.field(name="legalMoves", description="The caller's legal decisions now.")
    def legal_moves(self) -> list[LegalMove]:
        return [LegalMove(move=m, label=label) for m, label in self.table.legal_moves()]

    @strawberry.field
    def scores(self) -> Scores:
        scores = self.table.scores()
        return Scores(
            final=scores.final,
            winners=scores.winners,
            entries=[
                ScoreEntry(
                    seat=e.seat,
                    points=e.points,
                    breakdown=cast(JSON, e.breakdown),
                    tiebreak=e.tiebreak,
                )
                for e in scores.entries
            ],
        )  # fmt: skip

    @strawberry.field(description="Applied decisions after version `after`, oldest first.")
    async def history(self, info: Info[Any, Any], after: int | None = None) -> list[HistoryEntry]:
        try:
            entries = await _tables(info).history(self.table, after)
        except StoreUnavailable:
            raise unavailable() from None
        return [
            HistoryEntry(
                version=e.version, seat=e.seat, move=e.move, label=e.label, forced=e.forced
            )
            for e in entries
        ]


@strawberry.enum
class Strategy(Enum):
    RANDOM = "RANDOM"
    GREEDY = "GREEDY"
    SEARCH = "SEARCH"


@strawberry.input
class BotSeatInput:
    seat: int
    strategy: Strategy


@strawberry.type
class Suggestion:
    seat: int
    strategy: Strategy
    move: JSON
    label: str


@strawberry.input
class CreateGameInput:
    kind: GameKind
    players: int
    seed: str | None = None
    options: JSON | None = None
    bots: list[BotSeatInput] | None = strawberry.field(
        default=None,
        description="Seats the server plays itself, as soon as they are to act. They get no "
        "token; at least one seat stays human.",
    )


@strawberry.type
class CreateGamePayload:
    game: Game
    seats: list[SeatCredential]


@strawberry.input
class ApplyMoveInput:
    game_id: strawberry.ID
    move: JSON
    expected_version: int | None = None
    idempotency_key: str | None = None


@strawberry.type
class MoveApplied:
    game: Game
    replayed: bool = strawberry.field(
        description="True when this answers a retry of an already applied idempotencyKey."
    )


@strawberry.type
class MoveRejected:
    code: RejectCode  # type: ignore[valid-type]
    message: str
    current_version: int | None


ApplyMoveResult = Annotated[MoveApplied | MoveRejected, strawberry.union("ApplyMoveResult")]


@strawberry.type
class GameEvent:
    game_id: strawberry.ID
    version: int
    status: GameStatus


@strawberry.type
class Query:
    @strawberry.field(description="The games this server hosts.")
    def catalog(self) -> list[GameInfo]:
        return [
            GameInfo(
                kind=GameKind(kind),
                title=game.title,
                players=PlayerCount(min=game.min_players, max=game.max_players),
                options=cast(JSON, _defaults(game.options_type)),
                cards=cast(JSON, game.catalog()),
            )
            for kind, game in games().items()
        ]

    @strawberry.field(description="A game as the bearer's seat sees it, else as a spectator.")
    async def game(self, info: Info[Any, Any], id: strawberry.ID) -> Game | None:
        try:
            table = await _tables(info).read(str(id), _token(info))
        except StoreUnavailable:
            raise unavailable() from None
        except Unauthorized:
            raise ApiError("UNAUTHORIZED", "that token is not a seat of this game") from None
        return Game(table=table) if table is not None else None

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
        self, info: Info[Any, Any], game_id: strawberry.ID, move: JSON
    ) -> MoveValidation:
        try:
            rejected = await _tables(info).validate(str(game_id), _token(info), move)
        except StoreUnavailable:
            raise unavailable() from None
        if rejected is None:
            return MoveValidation(valid=True, code=None, message="legal now", current_version=None)
        return MoveValidation(
            valid=False,
            code=rejected.code,
            message=rejected.message,
            current_version=rejected.current_version,
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
        found = await _tables(info).suggest(
            str(game_id), _token(info), strategy.value, budget_ms, iterations, seed
        )
    except StoreUnavailable:
        raise unavailable() from None
    except HintsBusy as busy:
        raise ApiError(busy.code, busy.message) from None
    if isinstance(found, Rejected):
        raise ApiError(found.code.value, found.message)
    seat, move, label = found
    return Suggestion(seat=seat, strategy=strategy, move=move, label=label)


@strawberry.type
class MoveValidation:
    valid: bool
    code: RejectCode | None  # type: ignore[valid-type]
    message: str
    current_version: int | None


def _defaults(options_type: type[Any]) -> dict[str, Any]:
    defaults: dict[str, Any] = msgspec.to_builtins(options_type())
    return defaults


@strawberry.type
class Mutation:
    @strawberry.mutation(name="createGame")
    async def create_game(self, info: Info[Any, Any], input: CreateGameInput) -> CreateGamePayload:
        request = info.context.get("request")
        api_key = request.headers.get("x-api-key") if request is not None else None
        try:
            bots = {bot.seat: bot.strategy.value for bot in input.bots or []}
            table, tokens = await _tables(info).create(
                input.kind.value, input.players, input.seed, input.options, api_key, bots
            )
        except BadSetup as exc:
            raise ApiError("BAD_USER_INPUT", exc.message) from None
        except Unauthorized:
            raise ApiError("UNAUTHORIZED", "creating games needs an API key (X-API-Key)") from None
        except StoreUnavailable:
            raise unavailable() from None
        return CreateGamePayload(
            game=Game(table=table),
            seats=[SeatCredential(seat=seat, token=token) for seat, token in tokens.items()],
        )

    @strawberry.mutation(name="applyMove")
    async def apply_move(self, info: Info[Any, Any], input: ApplyMoveInput) -> ApplyMoveResult:
        try:
            result = await _tables(info).apply(
                str(input.game_id),
                _token(info),
                input.move,
                input.expected_version,
                input.idempotency_key,
            )
        except StoreUnavailable:
            raise unavailable() from None
        if isinstance(result, Applied):
            return MoveApplied(game=Game(table=result.table), replayed=result.replayed)
        return MoveRejected(
            code=result.code, message=result.message, current_version=result.current_version
        )


@strawberry.type
class Subscription:
    @strawberry.subscription(
        name="gameEvents",
        description="The game's current version, then every new one, in order. Versions are "
        "consecutive: on a gap, catch up with `history(after:)`. Authenticate with "
        '`{"authorization": "Bearer <token>"}` in the connection_init payload.',
    )
    async def game_events(
        self, info: Info[Any, Any], game_id: strawberry.ID
    ) -> AsyncGenerator[GameEvent, None]:
        tables = _tables(info)
        try:
            async with tables.store.events(str(game_id)) as pubsub:
                table = await tables.read(str(game_id), _socket_token(info))
                if table is None:
                    raise ApiError("NOT_FOUND", f"no game {str(game_id)!r}")
                last = table.record.version
                yield GameEvent(game_id=game_id, version=last, status=GameStatus(table.status()))
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    event = json.loads(message["data"])
                    if event["version"] <= last:
                        continue
                    last = event["version"]
                    yield GameEvent(
                        game_id=game_id, version=last, status=GameStatus(event["status"])
                    )
        except StoreUnavailable:
            raise unavailable() from None
        except Unauthorized:
            raise ApiError("UNAUTHORIZED", "that token is not a seat of this game") from None


def _socket_token(info: Info[Any, Any]) -> str | None:
    """The token from the connection_init payload, else from the upgrade request's header."""
    params = info.context.get("connection_params")
    if isinstance(params, dict):
        header = params.get("authorization") or params.get("Authorization")
        if isinstance(header, str):
            scheme, _, token = header.partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return _token(info)
