"""A game replayed from its seed one step of a game record at a time, as the service played
it: the engine's rules, the forced steps, the clock's timeouts and the takeback
policy (service/core/takebacks/policy.py). service/core/records/documents.py exports and verifies with it."""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from service.bots import Strategy
from service.bots import suggest as bot_suggest
from service.core.records.format import (
    RecordOutcome,
    RecordStep,
    RecordTakeback,
    Unverifiable,
    as_json,
    json_text,
)
from service.core.takebacks import policy as takebacks
from service.engine import (
    Game,
    IllegalMove,
    Rng,
    check,
    decode_state,
    encode_state,
)
from service.engine.play import parse_options
from service.engine.rng import seed_to_int
from service.refusals import Refused
from service.store import HistoryRecord
from service.store.records import (
    TakebackRequest,
)


def forced_now(game: Game[Any, Any], state: Any) -> tuple[int, Any] | None:
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
        forced = forced_now(game, self.state)
        move: Any = None
        if step.event is not None:
            self._timed_out(step, forced)
        if step.move is None:
            self._end(step, forced)
        elif step.forced:
            if forced is None or forced[0] != step.seat:
                raise Unverifiable(version, "FORCED_MISMATCH", "the rules force no such step")
            if as_json(forced[1]) != step.move:
                raise Unverifiable(
                    version, "FORCED_MISMATCH", f"the forced move is {json_text(forced[1])}"
                )
            move = forced[1]
            game.apply(self.state, step.seat, move)
        else:
            if forced is not None:
                raise Unverifiable(
                    version,
                    "FORCED_MISMATCH",
                    f"the rules force seat {forced[0]}'s move {json_text(forced[1])} here",
                )
            try:
                move = check(game, self.state, step.seat, step.move)
            except IllegalMove as exc:
                raise Unverifiable(version, "ILLEGAL_MOVE", exc.message) from None
            game.apply(self.state, step.seat, move)
        played = None if move is None else as_json(move)
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
        """A takeback step, judged as service/core/takebacks/policy.py decides: under the game's
        policy, back to the version the service plans, alone only when its seat may, with
        consent only from every other human seat (bots accept at once). Bots that agreed past a
        reveal (policy.bots_decline) are no tampering: earlier releases' bots did, and the
        records of their games still verify."""
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
        if as_json(move) != step.move:
            raise Unverifiable(
                version, "TIMEOUT_MISMATCH", f"the timeout plays {json_text(move)} for the seat"
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
        winners = self.game.scores(self.state).best_of(step.seat)
        return RecordOutcome(reason=step.event, seat=step.seat, winners=winners)

    def status(self) -> str:
        return "ABANDONED" if self.ending is not None and self.ending.seat == -1 else "FINISHED"
