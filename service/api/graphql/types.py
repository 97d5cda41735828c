"""The GraphQL types of games: what a game, its seats, moves, scores, history and events look
like, the inputs that create and move them, and the context helpers their resolvers share.
service/api/graphql/operations.py has the root Query, Mutation and Subscription."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias, cast

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from service.api.edge.localized import said_detail, said_label
from service.api.graphql import struct_types
from service.api.graphql.errors import api_error
from service.api.graphql.texts import Message, message
from service.bots import STRATEGIES
from service.core import Caller, GameService, LoadedGame
from service.core.game.clocks import MIN_PER_DECISION, MIN_PER_SEAT_TOTAL, ON_TIMEOUT, clock_json
from service.core.takebacks.policy import POLICIES, STEPS, note_json, request_json
from service.engine.play import parse_options
from service.games import games, retirements
from service.refusals import DECISIONS, Refused
from service.store.indexes import STATUSES
from service.store.records import ACTED_BY_TENANT, END_REASONS

if TYPE_CHECKING:  # generated from the Structs at import (struct_types.py): opaque to mypy
    Breakdown: TypeAlias = Any
    GameOptions: TypeAlias = Any
    GameView: TypeAlias = Any
    TypedMove: TypeAlias = Any
    TypedMoveInput: TypeAlias = Any
    TypedOptionsInput: TypeAlias = Any
else:
    from service.api.graphql.struct_types import (
        Breakdown,
        GameOptions,
        GameView,
        TypedMove,
        TypedMoveInput,
        TypedOptionsInput,
    )


def vocabulary(
    name: str,
    values: Iterable[str],
    description: str | None = None,
    names: Callable[[str], str] = str,
) -> Any:
    """A GraphQL enum made from the vocabulary the service defines, never copied: each value
    is a JSON string the service uses, named `names(value)` (the value itself by default)."""
    made = cast(type[Enum], Enum(name, [(names(v), v) for v in values]))
    return strawberry.enum(made, description=description)


if TYPE_CHECKING:  # made from their sources at import: opaque to mypy
    GameKind: TypeAlias = Any
    GameStatus: TypeAlias = Any
    EndReason: TypeAlias = Any
    TimeoutAction: TypeAlias = Any
    Strategy: TypeAlias = Any
    RejectCode: TypeAlias = Any
    ActedBy: TypeAlias = Any
    TakebackPolicy: TypeAlias = Any
    TakebackStep: TypeAlias = Any
else:
    GameKind = vocabulary("GameKind", games())  # every package under service/games
    GameStatus = vocabulary("GameStatus", STATUSES)
    EndReason = vocabulary("EndReason", END_REASONS)
    TimeoutAction = vocabulary("TimeoutAction", ON_TIMEOUT)
    Strategy = vocabulary("Strategy", STRATEGIES)
    RejectCode = vocabulary("RejectCode", DECISIONS)
    ActedBy = vocabulary(
        "ActedBy",
        [ACTED_BY_TENANT],
        "Who made a decision for its seat other than the seat itself: TENANT, the game's "
        "tenant with its API key (`asSeat`).",
    )
    TakebackPolicy = vocabulary(
        "TakebackPolicy",
        POLICIES,
        "Who may take back a decision (requestTakeback): NONE nobody; OWN_DECISIONS a seat its "
        "own last decision while nothing hidden was revealed, nothing random happened and no "
        "other seat decided since; WITH_CONSENT that too, and beyond it once every other human "
        "seat accepts (answerTakeback; bots accept).",
    )
    TakebackStep = vocabulary("TakebackStep", STEPS, "A step of a takeback in the history.")


SEED = (
    "For tests and replays: whoever chooses the seed knows every hidden card. Left out, the "
    "server draws one. In production it needs a tenant's API key (BAD_USER_INPUT otherwise)."
)


@strawberry.type
class SeedReveal:
    seed: str
    salt: str = strawberry.field(
        description="Drawn by the server at create, secret until the end, also when the "
        'client chose the seed ("" only in games created by earlier releases).'
    )
    options: JSON = strawberry.field(description="The create options as sent.")
    typed_options: GameOptions | None = strawberry.field(
        description="`options`, typed: as the game read them, defaults filled in (null only "
        "for a game created by a release that did not keep its create options)."
    )


@strawberry.input(description="A turn clock: exactly one of the two limits.")
class ClockInput:
    per_decision_seconds: float | None = strawberry.field(
        default=None, description=f"Each decision's time; at least {MIN_PER_DECISION:g} s."
    )
    per_seat_total_seconds: float | None = strawberry.field(
        default=None,
        description=f"Each seat's bank for the whole game; at least {MIN_PER_SEAT_TOTAL:g} s.",
    )
    increment_seconds: float = 0.0
    on_timeout: TimeoutAction = TimeoutAction.AUTO_RANDOM


def clock_option(clock: ClockInput | None) -> dict[str, Any] | None:
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


@strawberry.type(description="A takeback waiting for the other human seats' answers.")
class TakebackRequest:
    seat: int = strawberry.field(description="The seat that asked.")
    to_version: int = strawberry.field(description="The version whose state it restores.")
    accepted_by: list[int] = strawberry.field(description="The seats that agreed (bots at once).")
    waiting_for: list[int] = strawberry.field(description="The seats that must still answer.")
    expires: datetime = strawberry.field(
        description="When it lapses; any decision made before that ends it too."
    )


@strawberry.type(description="A history entry's takeback: who asked, who agreed.")
class TakebackNote:
    step: TakebackStep
    to_version: int = strawberry.field(description="The version whose state it restores.")
    asked_by: int
    agreed_by: list[int] = strawberry.field(
        description="Who had agreed (TAKEN: every other seat that had to; empty when the seat "
        "could take back alone)."
    )


def takeback_note(shown: dict[str, Any] | None) -> TakebackNote | None:
    if shown is None:
        return None
    return TakebackNote(
        step=TakebackStep(shown["step"]),
        to_version=shown["toVersion"],
        asked_by=shown["askedBy"],
        agreed_by=shown["agreedBy"],
    )


@strawberry.type(description="How a game ended other than by its rules.")
class Outcome:
    reason: EndReason
    seat: int | None = strawberry.field(description="The seat that resigned or timed out.")
    winners: list[int] = strawberry.field(
        description="RESIGNED and TIMEOUT: the best of the other seats by points at the end; "
        "ABANDONED: none. `scores` stays the rules' own (not final)."
    )


REASON = "ILLEGAL_MOVE only: why, as a code of the game's own (docs/rules/<game>.md lists them)."
RULE = "ILLEGAL_MOVE only: the ruling or rulebook section the reason comes from, e.g. TG-4."


def context_service(info: Info[Any, Any]) -> GameService:
    service: GameService = info.context["service"]
    return service


def context_api_key(info: Info[Any, Any]) -> str | None:
    request = info.context.get("request")
    return request.headers.get("x-api-key") if request is not None else None


def context_tenant(info: Info[Any, Any]) -> str | None:
    """The caller's tenant (X-API-Key), None for none; cached for the request."""
    if "tenant" not in info.context:
        info.context["tenant"] = context_service(info).tenant_of(context_api_key(info))
    tenant: str | None = info.context["tenant"]
    return tenant


def context_token(info: Info[Any, Any]) -> str | None:
    token: str | None = info.context.get("token")
    return token


AS_SEAT = (
    "Act as this seat: with the game's tenant's API key (X-API-Key), for a human seat of "
    "its own game; with a seat token, only its own seat (FORBIDDEN otherwise). Another "
    "tenant's key is answered as for a game that does not exist."
)


def context_caller(info: Info[Any, Any], as_seat: int | None = None) -> Caller:
    """The caller: its seat token, its tenant (X-API-Key: the game's own sees it live, not
    delayed as a spectator; on a socket, the upgrade request's header) and the seat it acts
    for."""
    return Caller(context_token(info), context_tenant(info), as_seat)


@strawberry.type
class PlayerCount:
    min: int
    max: int


@strawberry.type(
    description="A rules version under notice: this server plays it for now; once its notice "
    "has run and no live game uses it, a release retires it (docs/api.md)."
)
class DeprecatedRulesVersion:
    version: int
    retire_after: datetime = strawberry.field(
        description="The end of its notice (UTC): no release retires it sooner."
    )


@strawberry.type
class GameInfo:
    kind: GameKind
    title: str
    players: PlayerCount
    options: JSON = strawberry.field(description="Create options with their defaults.")
    cards: JSON = strawberry.field(description="Static card data a client needs to draw.")
    typed_options: GameOptions = strawberry.field(description="`options`, typed.")
    rules_version: int = strawberry.field(
        description="The version of its rules a new game is created under."
    )
    rules_versions: list[int] = strawberry.field(
        description="Every version of its rules this server still plays: a game is played to "
        "its end under the rules it was created with (`Game.rulesVersion`)."
    )

    @strawberry.field(description="The versions of `rulesVersions` a release will retire.")
    def deprecated_rules_versions(self) -> list[DeprecatedRulesVersion]:
        notices = retirements().get(self.kind.value, {})
        return [
            DeprecatedRulesVersion(version=version, retire_after=notice.ends())
            for version, notice in notices.items()
        ]


TYPED_MOVE = "The move as typed fields: the same move as `move`."
TYPED_MOVE_INPUT = (
    "The move as `applyMove`'s and `validateMove`'s `typedMove` takes it (a `TypedMoveInput` "
    "value: enum values by their typed names, `true` for a move without fields): send it back "
    "as it is to make this move."
)


LABEL_MESSAGE = "`label` as a catalog's message, its text in the language asked for."


@strawberry.type
class LegalMove:
    move: JSON
    label: str
    typed_move: TypedMove = strawberry.field(description=TYPED_MOVE)
    loaded: strawberry.Private[LoadedGame | None] = None

    @strawberry.field(description=LABEL_MESSAGE)
    def label_message(self) -> Message:
        loaded = self.loaded
        assert loaded is not None and loaded.viewer is not None
        return message(loaded.game.label_message(loaded.state, loaded.viewer, self.typed_move))

    @strawberry.field(description=TYPED_MOVE_INPUT)
    def typed_move_input(self) -> JSON:
        return cast(JSON, struct_types.move_input(self.typed_move))


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
    game: strawberry.Private[Any] = None

    @strawberry.field(
        description="Each item's `detail` of `breakdown`, in order, as a catalog's message."
    )
    def detail_messages(self) -> list[Message]:
        return [message(said_detail(self.game, item.detail)) for item in self.typed_breakdown]


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
    acted_by: ActedBy | None = strawberry.field(
        default=None,
        description="TENANT when the game's tenant made this decision for the seat; null "
        "when the seat itself (its token), a bot or the service did.",
    )
    takeback: TakebackNote | None = strawberry.field(
        default=None, description="An entry of a takeback (no move): its step, who asked."
    )

    @strawberry.field(description=TYPED_MOVE)
    def typed_move(self) -> TypedMove | None:
        return None if self.move is None else struct_types.typed_move(self.game, self.move)

    @strawberry.field(description=LABEL_MESSAGE)
    def label_message(self) -> Message:
        return message(said_label(self.game, self.label))


SPECTATOR_DELAY = (
    "Spectators (no seat token, not the game's tenant) see the game this many versions behind "
    "while it is ACTIVE: 0 (live, the default) to 100, BAD_USER_INPUT beyond. Seats and the "
    "game's tenant (X-API-Key) see it live; once the game is over everyone sees how it ended."
)
SPECTATOR_DELAY_FIELD = (
    "How many versions behind spectators see this game while it is ACTIVE (createGame's "
    "`spectatorDelay`). A spectator's `version`, `state`, `toAct`, `scores`, `history`, "
    "`stateAt` and events are those of that earlier version."
)
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


@strawberry.type(description="The rematch of a game that is over, once a seat offered it.")
class Rematch:
    game_id: strawberry.ID


@strawberry.type
class Game:
    loaded: strawberry.Private[LoadedGame]

    @strawberry.field
    def id(self) -> strawberry.ID:
        return strawberry.ID(self.loaded.id)

    @strawberry.field
    def kind(self) -> GameKind:
        return GameKind(self.loaded.record.kind)

    @strawberry.field
    def version(self) -> int:
        return self.loaded.record.version

    @strawberry.field(
        description="The version of its kind's rules the game is played under, to its end "
        "(`catalog.rulesVersions` lists those this server plays)."
    )
    def rules_version(self) -> int:
        return self.loaded.record.rules

    @strawberry.field
    def status(self) -> GameStatus:
        return GameStatus(self.loaded.status())

    @strawberry.field(
        name="seedCommitment",
        description="SHA-256 (hex) of `salt + seed`, fixed when the game was created: once "
        "it is over, `seedReveal` must hash to it (docs/api.md, verifying a game).",
    )
    def seed_commitment(self) -> str:
        return self.loaded.seed_commitment()

    @strawberry.field(
        name="seedReveal",
        description="The seed, salt and create options once the game is over; null before.",
    )
    def seed_reveal(self) -> SeedReveal | None:
        reveal = self.loaded.seed_reveal()
        if reveal is None:
            return None
        record = self.loaded.record
        return SeedReveal(
            seed=reveal["seed"],
            salt=reveal["salt"],
            options=cast(JSON, reveal["options"]),
            typed_options=(
                None
                if record.options is None
                else parse_options(self.loaded.game, record.players, record.options)
            ),
        )

    @strawberry.field(description="The turn clock, if the game was created with one.")
    def clock(self) -> GameClock | None:
        shown = clock_json(self.loaded.record)
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

    @strawberry.field(description="Who may take back a decision in this game.")
    def takebacks(self) -> TakebackPolicy:
        return TakebackPolicy(self.loaded.record.takebacks)

    @strawberry.field(
        name="takebackRequest",
        description="The takeback waiting for answers (WITH_CONSENT); null when none is.",
    )
    def takeback_request(self) -> TakebackRequest | None:
        shown = request_json(self.loaded.record)
        if shown is None:
            return None
        return TakebackRequest(
            seat=shown["seat"],
            to_version=shown["toVersion"],
            accepted_by=shown["acceptedBy"],
            waiting_for=shown["waitingFor"],
            expires=datetime.fromtimestamp(shown["expires"], UTC),
        )

    @strawberry.field(description="Set when a resign, the tenant or a clock ended the game.")
    def outcome(self) -> Outcome | None:
        ended = self.loaded.outcome()
        if ended is None:
            return None
        return Outcome(reason=EndReason(ended.reason), seat=ended.seat, winners=ended.winners)

    @strawberry.field
    def players(self) -> int:
        return self.loaded.record.players

    @strawberry.field(name="spectatorDelay", description=SPECTATOR_DELAY_FIELD)
    def spectator_delay(self) -> int:
        return self.loaded.record.spectator_delay

    @strawberry.field(name="toAct")
    def to_act(self) -> list[int]:
        return self.loaded.to_act

    @strawberry.field(description="The caller's seat; null for a spectator.")
    def viewer(self) -> int | None:
        return self.loaded.viewer

    @strawberry.field(description="The table as the caller may see it.")
    def state(self) -> JSON:
        return cast(JSON, self.loaded.view())

    @strawberry.field(
        name="stateAt",
        description="`state` as of an earlier version (0 up to the game's `version`), seen by the same "
        "viewer: replayed from the seed and the history. BAD_USER_INPUT for a version out of "
        "range or a game created by a release that did not keep its create options.",
    )
    async def state_at(self, info: Info[Any, Any], version: int) -> JSON:
        try:
            then = await context_service(info).at_version(self.loaded, version)
        except Refused as refused:
            raise api_error(refused) from None
        return cast(JSON, then.view())

    @strawberry.field(
        name="viewAt",
        description="`stateAt`, typed: `view` as of an earlier version, seen by the same viewer "
        "(the same refusals as `stateAt`).",
    )
    async def view_at(self, info: Info[Any, Any], version: int) -> GameView:
        try:
            then = await context_service(info).at_version(self.loaded, version)
        except Refused as refused:
            raise api_error(refused) from None
        return then.view()

    @strawberry.field(description="The table as the caller may see it, typed: `state`'s data.")
    def view(self) -> GameView:
        return self.loaded.view()

    @strawberry.field(name="legalMoves", description="The caller's legal decisions now.")
    def legal_moves(self) -> list[LegalMove]:
        return [
            LegalMove(move=m, label=label, typed_move=m, loaded=self.loaded)
            for m, label in self.loaded.legal_moves()
        ]

    @strawberry.field
    def scores(self) -> Scores:
        scores = self.loaded.scores()
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
                    game=self.loaded.game,
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
            for s in self.loaded.seats(context_tenant(info))
        ]

    @strawberry.field(
        description="The game's rematch once a seat offered it (offerRematch); null before, and "
        'while the game is ACTIVE (docs/api.md, "Rematch and challenges").'
    )
    async def rematch(self, info: Info[Any, Any]) -> Rematch | None:
        if self.loaded.status() == "ACTIVE":
            return None
        try:
            found = await context_service(info).rematch_offered(self.loaded.id)
        except Refused as refused:
            raise api_error(refused) from None
        return None if found is None else Rematch(game_id=strawberry.ID(found))

    @strawberry.field(description="Applied decisions after version `after`, oldest first.")
    async def history(self, info: Info[Any, Any], after: int | None = None) -> list[HistoryEntry]:
        try:
            entries = await context_service(info).history(self.loaded, after)
        except Refused as refused:
            raise api_error(refused) from None
        return [
            HistoryEntry(
                version=e.version,
                seat=e.seat if e.seat >= 0 else None,
                move=e.move,
                label=e.label,
                forced=e.forced,
                game=self.loaded.game,
                event=EndReason(e.event) if e.event in END_REASONS else None,
                acted_by=ActedBy(e.acted_by) if e.acted_by else None,
                takeback=takeback_note(note_json(e.takeback)),
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

    @strawberry.field(description=TYPED_MOVE_INPUT)
    def typed_move_input(self) -> JSON:
        return cast(JSON, struct_types.move_input(self.typed_move))


@strawberry.input(description="A seat createGame leaves open for a player to join.")
class OpenSeatInput:
    seat: int
    reserved_for: str | None = strawberry.field(
        default=None, description="Only this player id may take it (until bots fill it)."
    )


@strawberry.input
class CreateGameInput:
    kind: GameKind
    players: int
    seed: str | None = strawberry.field(default=None, description=SEED)
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
    spectator_delay: int = strawberry.field(default=0, description=SPECTATOR_DELAY)
    takebacks: TakebackPolicy = strawberry.field(
        default=TakebackPolicy.NONE,
        description="Whether and how seats may take back decisions (requestTakeback).",
    )
    open_seats: list[OpenSeatInput] | None = strawberry.field(
        default=None,
        description='Seats left for players to join (joinGame, docs/api.md "Players"): the '
        "game starts once every seat is filled; moves before are GAME_NOT_STARTED.",
    )
    fill_with_bots_after_seconds: int | None = strawberry.field(
        default=None,
        description="With openSeats: seats still open this long after create are the bots' "
        "(fillWithBotsStrategy) and the game starts.",
    )
    fill_with_bots_strategy: Strategy = strawberry.field(default=Strategy.GREEDY)


@strawberry.type
class CreateGamePayload:
    game: Game
    seats: list[SeatCredential]
    join_code: str | None = strawberry.field(
        default=None, description="With openSeats: the code players join with (joinGame)."
    )
    invite_url: str | None = strawberry.field(
        default=None, description="With openSeats: RULES_INVITE_BASE_URL and the join code."
    )


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
    as_seat: int | None = strawberry.field(default=None, description=AS_SEAT)


@strawberry.type
class MoveApplied:
    game: Game
    replayed: bool = strawberry.field(
        description="True when this answers a retry of an already applied idempotencyKey."
    )


@strawberry.type
class MoveRejected:
    code: RejectCode
    message: str
    current_version: int | None
    reason: str | None = strawberry.field(default=None, description=REASON)
    rule: str | None = strawberry.field(default=None, description=RULE)
    said: strawberry.Private[Any] = None

    @strawberry.field(description="`message` as a catalog's message, in the language asked for.")
    def localized_message(self) -> Message:
        return message(self.said)


ApplyMoveResult = Annotated[MoveApplied | MoveRejected, strawberry.union("ApplyMoveResult")]


@strawberry.type
class GameEvent:
    game_id: strawberry.ID
    version: int
    status: GameStatus
    catching_up: strawberry.Private[bool] = False  # a missed version (live.py paces them)

    @strawberry.field(
        description="The game at this event's version as the subscriber sees it (its seat's "
        "view, with the token of connection_init; a spectator's without), so a client needs no "
        "`game` round trip. Resolved per event and subscriber: select it only if you use it."
    )
    async def game(self, info: Info[Any, Any]) -> Game:
        service = context_service(info)
        try:
            loaded = await service.read(str(self.game_id), context_caller(info))
            return Game(
                loaded=await service.at_version(loaded, min(self.version, loaded.record.version))
            )
        except Refused as refused:
            raise api_error(refused) from None


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
