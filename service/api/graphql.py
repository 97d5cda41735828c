"""The GraphQL adapter (DESIGN.md, "The public API"): types, resolvers, schema.

Resolvers only parse, authorize through `Tables` and shape the answer; rules live in the engine.
Rule violations are `MoveRejected` values; a store outage is a GraphQL error with
`extensions.code = "UNAVAILABLE"`; every other unexpected error is masked.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator
from datetime import UTC, datetime
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias, cast

import msgspec
import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from service.api import typed
from service.api.clocks import clock_json
from service.api.errors import ApiError, unavailable
from service.api.hints import HintsBusy
from service.api.listing import BadListing, list_games
from service.api.listing import GameFilter as ListingFilter
from service.api.tables import (
    Applied,
    NoPastState,
    Rejected,
    Table,
    Tables,
    Unauthorized,
)
from service.api.webhooks import WebhookMutations, WebhookQueries
from service.engine import BadSetup, games
from service.engine import RejectCode as EngineRejectCode
from service.store import StoreUnavailable
from service.store.events import RESYNC

if TYPE_CHECKING:  # generated from the Structs at import (typed.py): opaque to mypy
    Breakdown: TypeAlias = Any
    GameOptions: TypeAlias = Any
    GameView: TypeAlias = Any
    TypedMove: TypeAlias = Any
    TypedMoveInput: TypeAlias = Any
    TypedOptionsInput: TypeAlias = Any
else:
    from service.api.typed import (
        Breakdown,
        GameOptions,
        GameView,
        TypedMove,
        TypedMoveInput,
        TypedOptionsInput,
    )


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
    ABANDONED = "ABANDONED"


@strawberry.enum
class EndReason(Enum):
    RESIGNED = "RESIGNED"
    ABANDONED = "ABANDONED"
    TIMEOUT = "TIMEOUT"


@strawberry.type
class SeedReveal:
    seed: str
    salt: str = strawberry.field(
        description='Drawn by the server; "" when the client chose the seed.'
    )
    options: JSON = strawberry.field(description="The create options as sent.")


@strawberry.enum
class TimeoutAction(Enum):
    AUTO_RANDOM = "AUTO_RANDOM"
    AUTO_GREEDY = "AUTO_GREEDY"
    FORFEIT = "FORFEIT"


@strawberry.input(description="A turn clock: exactly one of the two limits.")
class ClockInput:
    per_decision_seconds: float | None = None
    per_seat_total_seconds: float | None = None
    increment_seconds: float = 0.0
    on_timeout: TimeoutAction = TimeoutAction.AUTO_RANDOM


@strawberry.type(description="The turn clock; every viewer sees it, so clients can draw it.")
class GameClock:
    per_decision_seconds: float | None
    per_seat_total_seconds: float | None
    increment_seconds: float
    on_timeout: TimeoutAction
    seat: int | None = strawberry.field(description="The seat on the clock; null: none now.")
    deadline: datetime | None = strawberry.field(
        description="When that seat times out (the server enforces it with no client there)."
    )
    remaining_seconds: list[float] | None = strawberry.field(
        description="perSeatTotal clocks: each seat's bank as of the last decision (the seat "
        "on the clock has until `deadline`)."
    )


@strawberry.type(description="How a game ended other than by its rules.")
class Outcome:
    reason: EndReason
    seat: int | None = strawberry.field(description="The seat that resigned or timed out.")
    winners: list[int] = strawberry.field(
        description="RESIGNED and TIMEOUT: the best of the other seats by points at the end; "
        "ABANDONED: none. `scores` stays the rules' own (not final)."
    )


@strawberry.enum
class Strategy(Enum):
    RANDOM = "RANDOM"
    GREEDY = "GREEDY"
    SEARCH = "SEARCH"


RejectCode = strawberry.enum(EngineRejectCode, name="RejectCode")
REREAD_ATTEMPTS = 5


REASON = "ILLEGAL_MOVE only: why, as a code of the game's own (docs/rules/<game>.md lists them)."
RULE = "ILLEGAL_MOVE only: the ruling or rulebook section the reason comes from, e.g. TG-4."


def _tables(info: Info[Any, Any]) -> Tables:
    tables: Tables = info.context["tables"]
    return tables


def _api_key(info: Info[Any, Any]) -> str | None:
    request = info.context.get("request")
    return request.headers.get("x-api-key") if request is not None else None


def _tenant(info: Info[Any, Any]) -> str | None:
    """The caller's tenant (X-API-Key), None for none; cached for the request."""
    if "tenant" not in info.context:
        info.context["tenant"] = _tables(info).tenant_of(_api_key(info))
    tenant: str | None = info.context["tenant"]
    return tenant


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
    typed_options: GameOptions = strawberry.field(description="`options`, typed.")


TYPED_MOVE = "The move as typed fields: the same move as `move`."


@strawberry.type
class LegalMove:
    move: JSON
    label: str
    typed_move: TypedMove = strawberry.field(description=TYPED_MOVE)


@strawberry.type
class ScoreEntry:
    seat: int
    points: int
    breakdown: JSON
    tiebreak: list[int]
    typed_breakdown: Breakdown = strawberry.field(description="`breakdown`, typed.")
    team: list[int] | None = strawberry.field(
        default=None, description="Team games: the seats whose points `points` adds up."
    )
    seat_points: int | None = strawberry.field(
        default=None, description="Team games: this seat's own share of `points`."
    )


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
    game: strawberry.Private[Any]
    event: EndReason | None = strawberry.field(
        default=None, description="An entry that is no move: how the game ended."
    )

    @strawberry.field(description=TYPED_MOVE)
    def typed_move(self) -> TypedMove | None:
        return None if self.move is None else typed.typed_move(self.game, self.move)


PLAYER_ID = "The app's own id of the seat's user, shown only to the game's tenant (API key)."


@strawberry.type
class SeatCredential:
    seat: int
    token: str
    player_id: str | None = strawberry.field(default=None, description=PLAYER_ID)


@strawberry.type
class Seat:
    seat: int
    player_id: str | None = strawberry.field(description=PLAYER_ID)
    bot: Strategy | None = strawberry.field(description="The bot's strategy for a bot seat.")


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
        return GameStatus(self.table.status())

    @strawberry.field(
        name="seedCommitment",
        description="SHA-256 (hex) of `salt + seed`, fixed when the game was created: once "
        "it is over, `seedReveal` must hash to it (docs/api.md, verifying a game).",
    )
    def seed_commitment(self) -> str:
        return self.table.seed_commitment()

    @strawberry.field(
        name="seedReveal",
        description="The seed, salt and create options once the game is over; null before.",
    )
    def seed_reveal(self) -> SeedReveal | None:
        reveal = self.table.seed_reveal()
        if reveal is None:
            return None
        return SeedReveal(
            seed=reveal["seed"], salt=reveal["salt"], options=cast(JSON, reveal["options"])
        )

    @strawberry.field(description="The turn clock, if the game was created with one.")
    def clock(self) -> GameClock | None:
        shown = clock_json(self.table.record)
        if shown is None:
            return None
        deadline = shown["deadline"]
        return GameClock(
            per_decision_seconds=shown["perDecisionSeconds"],
            per_seat_total_seconds=shown["perSeatTotalSeconds"],
            increment_seconds=shown["incrementSeconds"],
            on_timeout=TimeoutAction(shown["onTimeout"]),
            seat=shown["seat"],
            deadline=None if deadline is None else datetime.fromtimestamp(deadline, UTC),
            remaining_seconds=shown["remainingSeconds"],
        )

    @strawberry.field(description="Set when a resign, the tenant or a clock ended the game.")
    def outcome(self) -> Outcome | None:
        ended = self.table.outcome()
        if ended is None:
            return None
        return Outcome(reason=EndReason(ended.reason), seat=ended.seat, winners=ended.winners)

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

    @strawberry.field(
        name="stateAt",
        description="`state` as of an earlier version (0 up to the game's `version`), seen by the same "
        "viewer: replayed from the seed and the history. BAD_USER_INPUT for a version out of "
        "range or a game created by a release that did not keep its create options.",
    )
    async def state_at(self, info: Info[Any, Any], version: int) -> JSON:
        try:
            then = await _tables(info).at_version(self.table, version)
        except NoPastState as exc:
            raise ApiError("BAD_USER_INPUT", exc.message) from None
        except StoreUnavailable:
            raise unavailable() from None
        return cast(JSON, then.view())

    @strawberry.field(description="The table as the caller may see it, typed: `state`'s data.")
    def view(self) -> GameView:
        return self.table.view()

    @strawberry.field(name="legalMoves", description="The caller's legal decisions now.")
    def legal_moves(self) -> list[LegalMove]:
        return [
            LegalMove(move=m, label=label, typed_move=m) for m, label in self.table.legal_moves()
        ]

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
                    typed_breakdown=e.breakdown,
                    team=e.team,
                    seat_points=e.seat_points,
                )
                for e in scores.entries
            ],
        )  # fmt: skip

    @strawberry.field(description="Every seat; player ids for the game's own tenant only.")
    def seats(self, info: Info[Any, Any]) -> list[Seat]:
        return [
            Seat(
                seat=s["seat"],
                player_id=s["playerId"],
                bot=None if s["bot"] is None else Strategy(s["bot"]),
            )
            for s in self.table.seats(_tenant(info))
        ]

    @strawberry.field(description="Applied decisions after version `after`, oldest first.")
    async def history(self, info: Info[Any, Any], after: int | None = None) -> list[HistoryEntry]:
        try:
            entries = await _tables(info).history(self.table, after)
        except StoreUnavailable:
            raise unavailable() from None
        return [
            HistoryEntry(
                version=e.version,
                seat=e.seat if e.seat >= 0 else None,
                move=e.move,
                label=e.label,
                forced=e.forced,
                game=self.table.game,
                event=EndReason(e.event) if e.event else None,
            )
            for e in entries
        ]


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
    typed_move: TypedMove = strawberry.field(description=TYPED_MOVE)


@strawberry.input
class CreateGameInput:
    kind: GameKind
    players: int
    seed: str | None = None
    options: JSON | None = None
    typed_options: TypedOptionsInput | None = strawberry.field(
        default=None, description="`options` as typed fields; give one of the two, or neither."
    )
    bots: list[BotSeatInput] | None = strawberry.field(
        default=None,
        description="Seats the server plays itself, as soon as they are to act. They get no "
        "token; at least one seat stays human.",
    )
    player_ids: list[str | None] | None = strawberry.field(
        default=None,
        description="The app's own user id per seat (by seat; null or missing: none), at most "
        "128 characters each. Lists games by player (`games(filter:)`); shown only to the "
        "game's tenant.",
    )
    clock: ClockInput | None = strawberry.field(
        default=None,
        description="A turn clock, enforced by the server even when no client comes back.",
    )


@strawberry.type
class CreateGamePayload:
    game: Game
    seats: list[SeatCredential]


@strawberry.input
class ApplyMoveInput:
    game_id: strawberry.ID
    move: JSON | None = strawberry.field(
        default=None, description="The move as JSON; give exactly one of move and typedMove."
    )
    typed_move: TypedMoveInput | None = strawberry.field(
        default=None, description="The move as typed fields; give exactly one of the two."
    )
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
    reason: str | None = strawberry.field(default=None, description=REASON)
    rule: str | None = strawberry.field(default=None, description=RULE)


ApplyMoveResult = Annotated[MoveApplied | MoveRejected, strawberry.union("ApplyMoveResult")]


@strawberry.type
class GameEvent:
    game_id: strawberry.ID
    version: int
    status: GameStatus


@strawberry.input
class GameFilter:
    status: GameStatus | None = None
    kind: GameKind | None = None
    player_id: str | None = strawberry.field(
        default=None, description="Games this player id sits in."
    )
    to_act_player_id: str | None = strawberry.field(
        default=None, description="Games where this player id must decide now."
    )
    created_after: datetime | None = None


@strawberry.type
class PageInfo:
    has_next_page: bool
    end_cursor: str | None = strawberry.field(
        description="Pass as `after` for the next page (with filters it may lie past the "
        "last edge: the server reads a bounded number of entries per page)."
    )


@strawberry.type
class GameEdge:
    cursor: str
    node: Game


@strawberry.type
class GameConnection:
    edges: list[GameEdge]
    page_info: PageInfo


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
            table = await _tables(info).read(str(id), _token(info))
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
        tenant = _tenant(info)
        if tenant is None:
            raise ApiError("UNAUTHORIZED", "listing games needs the tenant's API key (X-API-Key)")
        only = _listing(filter or GameFilter())
        try:
            page = await list_games(_tables(info).store, tenant, only, first, after)
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
                rejected = await _tables(info).validate(str(game_id), _token(info), chosen)
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
            table, tokens = await _tables(info).create(
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
            result = await _tables(info).resign(str(game_id), _token(info), expected_version)
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
            result = await _tables(info).abandon(str(game_id), _tenant(info))
        except StoreUnavailable:
            raise unavailable() from None
        return _ended(result)

    @strawberry.mutation(name="applyMove")
    async def apply_move(self, info: Info[Any, Any], input: ApplyMoveInput) -> ApplyMoveResult:
        move = _move(input.move, input.typed_move)
        if isinstance(move, Rejected):
            return MoveRejected(code=move.code, message=move.message, current_version=None)
        try:
            result = await _tables(info).apply(
                str(input.game_id),
                _token(info),
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
        tables, drop = _tables(info), info.context.get("drop_slow_consumer", _ignore)
        try:
            async with tables.store.events(str(game_id), drop) as events:
                table = await tables.read(str(game_id), _token(info))
                if table is None:
                    raise ApiError("NOT_FOUND", f"no game {str(game_id)!r}")
                last, status = table.record.version, GameStatus(table.status())
                yield GameEvent(game_id=game_id, version=last, status=status)
                while status is GameStatus.ACTIVE:  # nothing follows a game's end
                    data = await events.next()
                    if data == RESYNC:  # events were lost with the connection: read again
                        table = await _reread(tables, str(game_id), _token(info))
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
