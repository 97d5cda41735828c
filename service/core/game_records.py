"""Portable game records (issue 32): a game that is over, as one self-contained JSON document
that any instance (or `python -m service.replay`, offline) replays and verifies with the engine
alone, no Redis record needed.

The document names its format and version, the kind and the version of its rules, the create
options as sent, the seats' bots, the turn clock as created, the seed reveal (seed, salt and the commitment the game showed
from its start), every history entry (decisions, forced steps and the endings that are no move
of the rules: resign, timeout, abandon) with its version, and after each a digest of the whole
state (SHA-256 of its msgpack, hidden cards included: the game is over, RULINGS ALL-4), and the
result. A game with takebacks (service/core/takebacks.py) holds its policy and each takeback
step (ASKED, ACCEPTED, DECLINED, TAKEN) with who asked and who agreed: the replay judges each
under the policy as the service does and restores the state a TAKEN step goes back to.
Player ids are left out: a record is made to be handed around (tournaments, disputes,
archives), and a player id is the tenant's name for its user, shown only to the tenant.

`verify` replays a document step by step and answers the FIRST step that differs, with a
reason from `PROBLEMS`. It is pure and CPU-bound: callers bound its input (`MAX_STEPS`) and run
it off the event loop (service/core/service.py).
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, TypeAlias, cast

import msgspec

from service.bots import Strategy
from service.bots import suggest as bot_suggest
from service.core import takebacks
from service.core.clocks import ON_TIMEOUT
from service.core.decisions import best_of
from service.engine import (
    BadSetup,
    Game,
    IllegalMove,
    Rng,
    Wire,
    check,
    decode_state,
    encode_state,
)
from service.engine.play import parse_options
from service.engine.rng import seed_to_int
from service.games import games
from service.refusals import Refused
from service.store import HistoryRecord, Record
from service.store.records import (
    ACTED_BY_TENANT,
    END_REASONS,
    Outcome,
    TakebackNote,
    TakebackRequest,
)

FORMAT_NAME: Final = "tree-games/game-record"
FORMAT_VERSION: Final = 1
# A replay costs some 0.01-0.05 ms per step on one core (a 4-seat Treetopia game of 600 steps,
# the longest of the four, replays in 20-25 ms on a busy machine). Beyond this a record is
# refused unread, whatever it holds: no legal game comes near it.
MAX_STEPS = 5000
# What a record of MAX_STEPS steps takes at most, about: the body REST's verify route accepts
# (GraphQL's verifyGameRecord is bound by RULES_MAX_BODY_BYTES like every request).
MAX_RECORD_BYTES = 1024 * 1024

# Why a record does not verify, in the order the checks meet them.
PROBLEMS = (
    "MALFORMED",  # not a game record: a field missing, of the wrong type, or unknown
    "UNSUPPORTED_FORMAT",  # another format, or a version of this one this release cannot read
    "TOO_LONG",  # more than MAX_STEPS steps: not replayed here
    "UNKNOWN_KIND",  # a kind of game this server does not host
    "UNKNOWN_RULES_VERSION",  # rules of its kind this release does not have
    "SEED_MISMATCH",  # the seed and salt do not hash to the commitment
    "BAD_SETUP",  # the players or options are not a game of its kind
    "VERSION_MISMATCH",  # a step's version is not the one after the step before it
    "FORCED_MISMATCH",  # a forced step the rules do not force, or a decision where they do
    "ILLEGAL_MOVE",  # the rules refuse the step (not that seat's turn, not a legal move, over)
    "NOT_CANONICAL",  # a legal move spelt otherwise than the service records it
    "TIMEOUT_MISMATCH",  # a timeout the clock did not call, or not the move its onTimeout plays
    "TAKEBACK_NOT_ALLOWED",  # a takeback step the game's policy refuses (takebacks.py)
    "BAD_TAKEBACK",  # a takeback step the service would have recorded otherwise (its version...)
    "STATE_MISMATCH",  # the state after the step is not the one the record says
    "INCOMPLETE",  # the steps end before the game does
    "OUTCOME_MISMATCH",  # the ending (status, reason, seat, winners) is not the replayed one
    "SCORES_MISMATCH",  # the final scores are not the replayed ones
)
STATUSES = ("FINISHED", "ABANDONED")

if TYPE_CHECKING:  # Literals made from the tuples at import: JSON Schema lists them as enums
    Event: TypeAlias = str
    StepEvent: TypeAlias = str
    Policy: TypeAlias = str
    TakebackStep: TypeAlias = str
    ActedBy: TypeAlias = str
    Status: TypeAlias = str
    Problem: TypeAlias = str
    OnTimeout: TypeAlias = str
else:
    Event = Literal[END_REASONS]
    StepEvent = Literal[(*END_REASONS, takebacks.EVENT)]
    Policy = Literal[takebacks.POLICIES]
    TakebackStep = Literal[takebacks.STEPS]
    ActedBy = Literal[(ACTED_BY_TENANT,)]
    Status = Literal[STATUSES]
    Problem = Literal[PROBLEMS]
    OnTimeout = Literal[ON_TIMEOUT]
Digest = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$", description="SHA-256, hex")]


class RecordSeed(Wire, kw_only=True):
    seed: str
    salt: str
    commitment: Digest  # sha256 hex of salt + seed: what the game showed while it ran


class RecordBot(Wire, kw_only=True):
    seat: int
    strategy: Strategy


class RecordTakeback(Wire, kw_only=True):
    """A takeback step's note (docs/api.md section 13): ASKED, ACCEPTED and DECLINED keep the
    state; TAKEN restores the state of `to_version`. `agreed_by`: the seats that agreed so far
    (bots at once); empty on a TAKEN step its seat took alone."""

    step: TakebackStep
    to_version: int
    asked_by: int
    agreed_by: list[int] = []


class RecordStep(Wire, kw_only=True, omit_defaults=True):
    """One history entry: a decision, a forced step (RULINGS ALL-3), an ending without a
    move (`event` RESIGNED, ABANDONED or TIMEOUT; seat -1 for the tenant's abandon), or a
    takeback step (`event` TAKEBACK with its `takeback`; the seat that asked or answered). A
    timeout that played a move for the seat is a decision with `event` TIMEOUT."""

    version: int
    seat: int
    move: Any = None
    forced: bool = False
    event: StepEvent | None = None
    acted_by: ActedBy | None = None  # TENANT: the game's tenant decided for the seat (asSeat)
    takeback: RecordTakeback | None = None
    digest: Digest  # the state after this step (`state_digest`)


class RecordClock(Wire, kw_only=True):
    """The turn clock as created: what a TIMEOUT step may be (docs/api.md, "clock")."""

    per_decision_seconds: float | None
    per_seat_total_seconds: float | None
    increment_seconds: float
    on_timeout: OnTimeout


class RecordOutcome(Wire, kw_only=True):
    reason: Event
    seat: int | None
    winners: list[int]


class RecordResult(Wire, kw_only=True):
    status: Status
    version: int
    scores: Any  # the game's Scores as JSON
    outcome: RecordOutcome | None = None  # an ending other than by the rules


class GameRecord(Wire, kw_only=True):
    format: Literal["tree-games/game-record"]  # FORMAT_NAME
    format_version: Literal[1]  # FORMAT_VERSION: a new one for any change a reader must know
    game_id: str | None = None
    kind: str
    rules: int  # the RULES_VERSION of its kind the game was played under
    players: int
    options: dict[str, Any]  # as created
    bots: list[RecordBot] = []
    clock: RecordClock | None = None
    # the takebacks create option (absent in records without takebacks: NONE)
    takebacks: Policy = "NONE"
    created: str | None = None  # ISO 8601, informative: no replay reads it
    ended: str | None = None
    seed: RecordSeed
    setup_digest: Digest  # the options read and the state at version 0 (Replay.setup_digest)
    steps: list[RecordStep]
    result: RecordResult


class RecordDifference(Wire, kw_only=True):
    version: int  # the first step that differs (0: the game's setup, before any step)
    reason: Problem
    message: str


class RecordVerification(Wire, kw_only=True):
    valid: bool
    kind: str | None = None
    version: int | None = None  # the last version replayed
    scores: Any = None  # the replayed final scores, when valid
    difference: RecordDifference | None = None


class Unverifiable(Exception):
    """What makes a record differ: the first step and why."""

    def __init__(self, version: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.difference = RecordDifference(version=version, reason=reason, message=message)


def json_schema() -> dict[str, Any]:
    """The published JSON Schema of the document (schema/game-record.json)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "A game record: a game that is over, replayable anywhere (docs/api.md)",
        **msgspec.json.schema(GameRecord),
    }


def state_digest(state: msgspec.Struct) -> str:
    return hashlib.sha256(encode_state(state)).hexdigest()


def commitment(salt: str, seed: str) -> str:
    """The seed commitment a game shows from its start (service/core/loaded.py)."""
    return hashlib.sha256((salt + seed).encode()).hexdigest()


def _forced(game: Game[Any, Any], state: Any) -> tuple[int, Any] | None:
    """The decision the rules force now, if any: the first seat to act with one option, as
    the engine's `_apply_forced` takes it (RULINGS ALL-3)."""
    if game.is_over(state):
        return None
    for seat in game.to_act(state):
        moves = game.legal_moves(state, seat)
        if len(moves) == 1:
            return seat, moves[0]
    return None


class Replay:
    """A game replayed from its seed one history entry at a time, as the service played it."""

    def __init__(
        self,
        game: Game[Any, Any],
        players: int,
        options: object,
        seed: str,
        bots: set[int] | frozenset[int] = frozenset(),
        on_timeout: str | None = None,
        policy: str = "NONE",
    ) -> None:
        self.game = game
        self.players = players
        self.seed, self.bots, self.on_timeout, self.policy = seed, bots, on_timeout, policy
        self.options = parse_options(game, players, options)
        self.state = game.setup(players, self.options, Rng.from_seed(seed))
        self.version = 0
        self.ending: RecordStep | None = None  # the step that ended the game without a move
        self.digest = ""  # state_digest after the last step
        # for takebacks (none under NONE): the entries the state is made of now, as
        # takebacks.live would find them in the whole history (kept step by step: a record's
        # takebacks cost no more than its length each), the encoded state of every version,
        # and the request waiting for answers
        self.line: list[HistoryRecord] = []
        self.states: dict[int, bytes] = {} if policy == "NONE" else {0: encode_state(self.state)}
        self.request: TakebackRequest | None = None

    def setup_digest(self) -> str:
        """The options as the rules read them and the state they set up: an option a game's
        rules ignore (Tree Lined Avenue's startSeat) cannot be edited unseen either. A takeback
        policy other than NONE is read too (records without takebacks keep their digest)."""
        read = encode_state(self.options) + encode_state(self.state)
        if self.policy != "NONE":
            read += self.policy.encode()
        return hashlib.sha256(read).hexdigest()

    def play(self, step: RecordStep) -> Any:
        """Apply `step` (raises Unverifiable at its version if the rules do not allow it); the
        move as the service records it (None for an ending): the parsed and normalised move's
        JSON, so one decision has one spelling."""
        version, game = step.version, self.game
        if version != self.version + 1:
            raise Unverifiable(
                self.version + 1,
                "VERSION_MISMATCH",
                f"the step after version {self.version} has version {version}",
            )
        if self.ending is not None:
            raise Unverifiable(
                version, "ILLEGAL_MOVE", f"the game ended at version {self.ending.version}"
            )
        if step.event == takebacks.EVENT or step.takeback is not None:
            self._takeback(step)
            self._played(step, None)
            return None
        self.request = None  # any decision voids a request (takebacks.pending)
        forced = _forced(game, self.state)
        move: Any = None
        if step.event is not None:
            self._timed_out(step, forced)
        if step.move is None:
            self._end(step, forced)
        elif step.forced:
            if forced is None or forced[0] != step.seat:
                raise Unverifiable(version, "FORCED_MISMATCH", "the rules force no such step")
            if _as_json(forced[1]) != step.move:
                raise Unverifiable(
                    version, "FORCED_MISMATCH", f"the forced move is {_json(forced[1])}"
                )
            move = forced[1]
            game.apply(self.state, step.seat, move)
        else:
            if forced is not None:
                raise Unverifiable(
                    version,
                    "FORCED_MISMATCH",
                    f"the rules force seat {forced[0]}'s move {_json(forced[1])} here",
                )
            try:
                move = check(game, self.state, step.seat, step.move)
            except IllegalMove as exc:
                raise Unverifiable(version, "ILLEGAL_MOVE", exc.message) from None
            game.apply(self.state, step.seat, move)
        played = None if move is None else _as_json(move)
        self._played(step, played)
        return played

    def _played(self, step: RecordStep, move: Any) -> None:
        """Note the step played: its version, the digest of the state after it and, for
        takebacks, its entry and the state."""
        self.version = step.version
        encoded = encode_state(self.state)
        self.digest = hashlib.sha256(encoded).hexdigest()
        if self.policy == "NONE":
            return
        self.states[step.version] = encoded
        note = step.takeback
        if note is None:
            entry = HistoryRecord(
                step.version,
                step.seat,
                move,
                "",
                step.forced,
                step.event or "",
                step.acted_by or "",
            )
            self.line.append(entry)
        elif note.step == takebacks.TAKEN:
            self.line = [e for e in self.line if e.version <= note.to_version]

    def _takeback(self, step: RecordStep) -> None:
        """A takeback step, judged as service/core/takebacks.py decides: under the game's
        policy, back to the version the service plans, alone only when its seat may, with
        consent only from every other human seat (bots accept at once)."""
        version, note = step.version, step.takeback
        if note is None or step.event != takebacks.EVENT or step.move is not None or step.forced:
            raise Unverifiable(
                version, "MALFORMED", "a takeback step has event TAKEBACK, a takeback, no move"
            )
        if self.policy == "NONE":
            raise Unverifiable(
                version, "TAKEBACK_NOT_ALLOWED", "the game was created without takebacks"
            )
        if self.ending is not None or self.game.is_over(self.state):
            raise Unverifiable(version, "TAKEBACK_NOT_ALLOWED", "the game is over")
        if not 0 <= step.seat < self.players:
            raise Unverifiable(version, "BAD_TAKEBACK", "the seat is no seat of the game")
        request = self.request if self.request and self.request.asked == self.version else None
        self.request = None
        if note.step in (takebacks.ACCEPTED, takebacks.DECLINED):
            self._answer(step, note, request)
        elif note.step == takebacks.TAKEN and self._completes(step, note, request):
            assert request is not None
            self._check_back(step, note, request.seat, request.to_version, answered=True)
        else:
            self._ask(step, note)
        if note.step == takebacks.TAKEN:
            self.state = decode_state(self.game, self.states[note.to_version])

    def _ask(self, step: RecordStep, note: RecordTakeback) -> None:
        """An ASKED step, or a TAKEN one its seat took without a request."""
        version, seat = step.version, step.seat
        try:
            chosen = takebacks.plan(self.line, seat)
        except Refused as refused:
            raise Unverifiable(version, "TAKEBACK_NOT_ALLOWED", refused.message) from None
        self._check_back(step, note, seat, chosen.to_version)
        back = decode_state(self.game, self.states[chosen.to_version])
        why = takebacks.not_alone(self.game, back, chosen)
        at_once = takebacks.takes_at_once(self.policy, self.players, self.bots, seat)
        alone = why is None or at_once
        agreed = [] if why is None else sorted(self.bots)
        if note.step == takebacks.ASKED:
            if alone:
                raise Unverifiable(
                    version, "BAD_TAKEBACK", "the seat takes this back at once: nothing to ask"
                )
            if self.policy != "WITH_CONSENT":
                raise Unverifiable(
                    version, "TAKEBACK_NOT_ALLOWED", f"{why} (takebacks {self.policy})"
                )
            agreed = sorted(self.bots)
            self.request = TakebackRequest(seat, chosen.to_version, version, 0.0, agreed)
        elif not alone or not set(agreed) <= set(note.agreed_by):
            needs = "" if alone else f" (takebacks {self.policy})"
            raise Unverifiable(
                version,
                "TAKEBACK_NOT_ALLOWED",
                f"seat {seat} may not take back alone: {why}{needs}",
            )
        if note.agreed_by != agreed:
            raise Unverifiable(version, "BAD_TAKEBACK", f"agreed by {agreed}")

    def _answer(
        self, step: RecordStep, note: RecordTakeback, request: TakebackRequest | None
    ) -> None:
        """An ACCEPTED or DECLINED step: an answer the request still waits for."""
        version = step.version
        waiting = [] if request is None else self._waiting(request)
        if request is None or step.seat not in waiting:
            raise Unverifiable(
                version, "TAKEBACK_NOT_ALLOWED", f"no request waits for seat {step.seat}'s answer"
            )
        self._check_back(step, note, request.seat, request.to_version, answered=True)
        agreed = list(request.accepted)
        if note.step == takebacks.ACCEPTED:
            agreed = sorted([*agreed, step.seat])
            if len(waiting) == 1:
                raise Unverifiable(version, "BAD_TAKEBACK", "the last acceptance is TAKEN")
            self.request = msgspec.structs.replace(request, asked=version, accepted=agreed)
        if note.agreed_by != agreed:
            raise Unverifiable(version, "BAD_TAKEBACK", f"agreed by {agreed}")

    def _completes(
        self, step: RecordStep, note: RecordTakeback, request: TakebackRequest | None
    ) -> bool:
        """Whether a TAKEN step is the last acceptance of the waiting request (else its seat
        took it alone: a request may have lapsed, which no record tells)."""
        if request is None or step.seat != request.seat:
            return False
        waiting = self._waiting(request)
        return len(waiting) == 1 and note.agreed_by == sorted([*request.accepted, *waiting])

    def _waiting(self, request: TakebackRequest) -> list[int]:
        """The human seats whose answer `request` still needs (takebacks.waiting_for)."""
        return [
            seat
            for seat in range(self.players)
            if seat != request.seat and seat not in self.bots and seat not in request.accepted
        ]

    def _check_back(
        self,
        step: RecordStep,
        note: RecordTakeback,
        seat: int,
        to_version: int,
        answered: bool = False,
    ) -> None:
        """The step names the asker (its seat too, but for an answer's) and the version the
        service takes back to."""
        if note.asked_by != seat or (not answered and step.seat != seat):
            raise Unverifiable(step.version, "BAD_TAKEBACK", f"seat {seat} asked")
        if note.to_version != to_version:
            raise Unverifiable(
                step.version,
                "BAD_TAKEBACK",
                f"the takeback goes back to version {to_version}, before seat {seat}'s last "
                "decision",
            )

    def _timed_out(self, step: RecordStep, forced: tuple[int, Any] | None) -> None:
        """A step marked TIMEOUT is the clock's own: the seat on it (the first to act, never a
        bot), and the move its onTimeout plays, seeded as decisions.timeout_step seeds it."""
        version, event = step.version, step.event
        if event != "TIMEOUT":
            if step.move is not None:
                raise Unverifiable(version, "MALFORMED", f"{event} is an ending: it has no move")
            return
        acting = [] if self.game.is_over(self.state) else self.game.to_act(self.state)
        if (
            self.on_timeout is None
            or not acting
            or acting[0] != step.seat
            or step.seat in self.bots
        ):
            raise Unverifiable(version, "TIMEOUT_MISMATCH", "no clock ran for this seat here")
        if (step.move is None) != (self.on_timeout == "FORFEIT") or forced is not None:
            raise Unverifiable(
                version, "TIMEOUT_MISMATCH", f"the clock's onTimeout is {self.on_timeout}"
            )
        if step.move is None:
            return
        strategy: Strategy = "RANDOM" if self.on_timeout == "AUTO_RANDOM" else "GREEDY"
        seed = seed_to_int(f"{self.seed}:timeout:{version - 1}")
        move = bot_suggest(self.game, self.state, step.seat, strategy, seed=seed)
        if _as_json(move) != step.move:
            raise Unverifiable(
                version, "TIMEOUT_MISMATCH", f"the timeout plays {_json(move)} for the seat"
            )

    def _end(self, step: RecordStep, forced: tuple[int, Any] | None) -> None:
        """An ending without a move: it comes only while the game runs, between decisions."""
        version = step.version
        if step.event is None or step.forced:
            raise Unverifiable(version, "MALFORMED", "a step without a move is an ending (event)")
        if self.game.is_over(self.state):
            raise Unverifiable(version, "ILLEGAL_MOVE", "the game is over by its rules")
        if forced is not None:
            raise Unverifiable(version, "FORCED_MISMATCH", "a forced step comes first")
        abandoned = step.event == "ABANDONED"
        if (step.seat == -1) != abandoned or not -1 <= step.seat < self.players:
            expected = "-1 (the tenant)" if abandoned else "a seat of the game"
            raise Unverifiable(version, "ILLEGAL_MOVE", f"the seat of {step.event} is {expected}")
        self.ending = step

    def outcome(self) -> RecordOutcome | None:
        step = self.ending
        if step is None or step.event is None:
            return None
        if step.event == "ABANDONED":
            return RecordOutcome(reason="ABANDONED", seat=None, winners=[])
        winners = best_of(self.game.scores(self.state), exclude=step.seat)
        return RecordOutcome(reason=step.event, seat=step.seat, winners=winners)

    def status(self) -> str:
        return "ABANDONED" if self.ending is not None and self.ending.seat == -1 else "FINISHED"


def _as_json(value: Any) -> Any:
    """`value` as JSON reads it back (to_builtins keeps a tuple a tuple; JSON has lists), so
    what the server replays compares equal to what a record says."""
    return msgspec.json.decode(msgspec.json.encode(value))


def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def _time(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds")


def export(game_id: str, record: Record, entries: list[HistoryRecord]) -> GameRecord:
    """The record of a game that is over, from its stored record and whole history. Raises
    Unverifiable if the history does not replay under this release's rules (a server fault:
    the caller checked the rules version)."""
    game = games()[record.kind]
    options = record.options if record.options is not None else {}
    on_timeout = None if record.clock is None else record.clock.on_timeout
    replay = Replay(
        game, record.players, options, record.seed, set(record.bots), on_timeout, record.takebacks
    )
    setup = replay.setup_digest()
    steps = []
    for entry in entries:
        step = RecordStep(
            version=entry.version,
            seat=entry.seat,
            move=entry.move,
            forced=entry.forced,
            event=entry.event or None,
            acted_by=entry.acted_by or None,
            takeback=_takeback(entry.takeback),
            digest="",
        )
        step.move = replay.play(step)  # entries of earlier releases may spell it otherwise
        step.digest = replay.digest
        steps.append(step)
    outcome = record.outcome
    return GameRecord(
        format=FORMAT_NAME,
        format_version=FORMAT_VERSION,
        game_id=game_id,
        kind=record.kind,
        rules=record.rules,
        players=record.players,
        options=options,
        bots=[
            RecordBot(seat=s, strategy=cast(Strategy, b)) for s, b in sorted(record.bots.items())
        ],
        clock=_clock(record),
        takebacks=record.takebacks,
        created=_time(record.created),
        ended=_time(record.updated),
        seed=RecordSeed(
            seed=record.seed, salt=record.salt, commitment=commitment(record.salt, record.seed)
        ),
        setup_digest=setup,
        steps=steps,
        result=RecordResult(
            status=record.status(),
            version=record.version,
            scores=_as_json(game.scores(replay.state)),
            outcome=None if outcome is None else _outcome(outcome),
        ),
    )


def _clock(record: Record) -> RecordClock | None:
    clock = record.clock
    if clock is None:
        return None
    return RecordClock(
        per_decision_seconds=clock.per_decision,
        per_seat_total_seconds=clock.per_seat_total,
        increment_seconds=clock.increment,
        on_timeout=clock.on_timeout,
    )


def _takeback(note: TakebackNote | None) -> RecordTakeback | None:
    if note is None:
        return None
    return RecordTakeback(
        step=note.step,
        to_version=note.to_version,
        asked_by=note.asked_by,
        agreed_by=list(note.agreed_by),
    )


def _outcome(outcome: Outcome) -> RecordOutcome:
    return RecordOutcome(reason=outcome.reason, seat=outcome.seat, winners=outcome.winners)


def verify(document: object) -> RecordVerification:
    """Replay `document` and say whether every step is legal and matches: the replayed final
    scores, or the first step that differs and why."""
    kind = None
    try:
        record = _parse(document)
        kind = record.kind
        replay = _setup(record)
        for step in record.steps:
            if replay.play(step) != step.move:
                raise Unverifiable(
                    step.version, "NOT_CANONICAL", "the service records this move otherwise"
                )
            if step.digest != replay.digest:
                raise Unverifiable(
                    step.version, "STATE_MISMATCH", "the state after this step differs"
                )
        scores = _as_json(replay.game.scores(replay.state))
        _check_result(record.result, replay, scores)
    except Unverifiable as failed:
        return RecordVerification(valid=False, kind=kind, difference=failed.difference)
    return RecordVerification(valid=True, kind=kind, version=replay.version, scores=scores)


def _parse(document: object) -> GameRecord:
    if not isinstance(document, dict):
        raise Unverifiable(0, "MALFORMED", "a game record is a JSON object")
    if document.get("format") != FORMAT_NAME:
        raise Unverifiable(0, "UNSUPPORTED_FORMAT", f"format is {FORMAT_NAME!r}")
    if document.get("formatVersion") != FORMAT_VERSION:
        raise Unverifiable(
            0, "UNSUPPORTED_FORMAT", f"this release reads formatVersion {FORMAT_VERSION}"
        )
    steps = document.get("steps")
    if isinstance(steps, list) and len(steps) > MAX_STEPS:
        raise Unverifiable(0, "TOO_LONG", f"a record has at most {MAX_STEPS} steps here")
    try:
        return msgspec.convert(document, type=GameRecord)
    except msgspec.ValidationError as exc:
        raise Unverifiable(0, "MALFORMED", str(exc)) from None


def _setup(record: GameRecord) -> Replay:
    game = games().get(record.kind)
    if game is None:
        raise Unverifiable(0, "UNKNOWN_KIND", f"this server hosts {', '.join(games())}")
    if record.rules != game.rules_version:
        raise Unverifiable(
            0,
            "UNKNOWN_RULES_VERSION",
            f"this release plays version {game.rules_version} of the rules of {record.kind}, "
            f"not {record.rules}",
        )
    seed = record.seed
    if commitment(seed.salt, seed.seed) != seed.commitment:
        raise Unverifiable(0, "SEED_MISMATCH", "sha256(salt + seed) is not the commitment")
    bots = [bot.seat for bot in record.bots]
    if not all(0 <= seat < record.players for seat in bots) or len(set(bots)) != len(bots):
        raise Unverifiable(0, "BAD_SETUP", "bots name distinct seats of the game")
    try:
        on_timeout = None if record.clock is None else record.clock.on_timeout
        replay = Replay(
            game,
            record.players,
            record.options,
            seed.seed,
            set(bots),
            on_timeout,
            record.takebacks,
        )
    except BadSetup as exc:
        raise Unverifiable(0, "BAD_SETUP", exc.message) from None
    if record.setup_digest != replay.setup_digest():
        raise Unverifiable(0, "STATE_MISMATCH", "the state after setup differs")
    return replay


def _check_result(result: RecordResult, replay: Replay, scores: Any) -> None:
    version = replay.version
    if replay.ending is None and not replay.game.is_over(replay.state):
        raise Unverifiable(version + 1, "INCOMPLETE", "the game is not over after the last step")
    if result.version != version:
        raise Unverifiable(
            version, "VERSION_MISMATCH", f"the last step is version {version}, not {result.version}"
        )
    if result.status != replay.status() or result.outcome != replay.outcome():
        raise Unverifiable(version, "OUTCOME_MISMATCH", "the game did not end this way")
    if result.scores != scores:
        raise Unverifiable(version, "SCORES_MISMATCH", f"the final scores are {_json(scores)}")
