"""Takebacks under a fair policy (issue 32, docs/architecture.md "The path of a takeback").

A game's `takebacks` create option (Record.takebacks) is NONE, OWN_DECISIONS or WITH_CONSENT.
A seat asks to take back its own last decision: the game goes back to the version just before
it, as a NEW version whose state equals that one (versions only grow, so subscribers and
webhooks see it like any other change). Asking again goes one more decision back.

Alone, a seat may take back only while, since that version, nothing hidden was revealed to
anyone and nothing random happened (each game's `takeback_safe` hook, written from its
rulebook, checked commit by commit) and no other seat decided (a forced step, RULINGS ALL-3, is
no decision; a timeout's move is the service's, not the seat's). Beyond that:

- OWN_DECISIONS refuses, TAKEBACK_NOT_ALLOWED;
- WITH_CONSENT records a request (Record.takeback, a version of its own with an ASKED entry)
  that every other human seat must accept (answerTakeback); bot seats accept at once. It lapses
  after RULES_TAKEBACK_SECONDS (GameService.takeback_seconds) or when anyone decides (decisions.advance clears it): a request is
  about the game as it was asked, so any change voids it. A decline ends it.

Each step (ASKED, ACCEPTED, DECLINED, TAKEN) is one version-checked commit with one history
entry (event TAKEBACK, a TakebackNote saying who asked and who agreed), idempotent with the same
keys and fingerprints moves use. The TAKEN step restores the clock of that version
(clocks.restored). A takeback never shows anyone a state they could not see: its state is one
they saw at that version, and the hook refuses going alone past anything revealed (ALL-4).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import msgspec

from service import metrics
from service.core import clocks
from service.core.decisions import acting, bot_due, ended, fingerprint, playable
from service.core.loaded import Applied, LoadedGame
from service.core.loading import not_found
from service.core.moves import stale
from service.engine import Game, IllegalMove
from service.engine import play as engine_play
from service.engine.play import decode_state, encode_state
from service.engine.texts import COMMON
from service.games import games
from service.refusals import Code, Refused
from service.store import FORMAT, Done, HistoryRecord, Record
from service.store.records import ACTED_BY_TENANT, TakebackNote, TakebackRequest
from service.webhooks.events import of_commit as webhook_events

if TYPE_CHECKING:
    from service.core.callers import Caller
    from service.core.service import GameService

POLICIES = ("NONE", "OWN_DECISIONS", "WITH_CONSENT")
EVENT = "TAKEBACK"  # the `event` of every takeback entry: no move of the game's (replays skip it)
ASKED, ACCEPTED, DECLINED, TAKEN = "ASKED", "ACCEPTED", "DECLINED", "TAKEN"
STEPS = (ASKED, ACCEPTED, DECLINED, TAKEN)  # TakebackNote.step


def parse_policy(raw: object) -> str:
    """The `takebacks` create option; BAD_INPUT names the values."""
    if raw is None:
        return "NONE"
    if raw not in POLICIES:
        raise Refused(Code.BAD_INPUT, f"takebacks is one of {', '.join(POLICIES)}")
    return str(raw)


def pending(record: Record, now: float) -> TakebackRequest | None:
    """The request waiting for answers now, if any: none once it lapsed (its time ran out, or
    a later version than its last step exists: someone decided) or the game is over."""
    request = record.takeback
    if request is None or record.finished or record.outcome is not None:
        return None
    if request.asked != record.version or now >= request.expires:
        return None
    return request


def waiting_for(record: Record, request: TakebackRequest) -> list[int]:
    """The human seats whose answer the request still needs."""
    return [
        seat
        for seat in range(record.players)
        if seat != request.seat and seat not in record.bots and seat not in request.accepted
    ]


def live(entries: list[HistoryRecord]) -> list[HistoryRecord]:
    """The entries whose steps the game's state is made of now: every TAKEN takeback drops
    the entries after the version it went back to; takeback entries themselves change
    nothing (their state is one of a version before)."""
    line: list[HistoryRecord] = []
    for entry in entries:
        note = entry.takeback
        if note is None:
            line.append(entry)
        elif note.step == TAKEN:
            line = [e for e in line if e.version <= note.to_version]
    return line


def _own(entry: HistoryRecord, seat: int) -> bool:
    """The seat's own decision (its token or its tenant for it), not the service's."""
    return entry.seat == seat and not entry.forced and not entry.event and entry.move is not None


class Plan(msgspec.Struct, frozen=True):
    """A takeback of `seat`'s last decision: the version whose state it restores, the
    decisions it undoes (in order, each with the forced steps after it) and whether another
    seat (or the service, on a timeout) decided since."""

    seat: int
    to_version: int
    undone: list[HistoryRecord]
    others_decided: bool


def plan(entries: list[HistoryRecord], seat: int) -> Plan:
    line = live(entries)
    own = [e for e in line if _own(e, seat)]
    if not own:
        raise Refused(
            Code.TAKEBACK_NOT_ALLOWED,
            f"seat {seat} has no decision to take back",
            entries[-1].version if entries else None,
        )
    to_version = own[-1].version - 1
    undone = [e for e in line if e.version > to_version]
    others = any(not e.forced and not _own(e, seat) for e in undone)
    return Plan(seat, to_version, undone, others)


def unsafe_step(game: Game[Any, Any], state: Any, undone: list[HistoryRecord]) -> int | None:
    """The version of the first undone commit that revealed something hidden or drew on
    chance (`takeback_safe` of the states before and after it), None if none did. `state` is
    the state at the takeback's version; the undone decisions are played again from it."""
    for entry in undone:
        if entry.forced:
            continue  # played with the decision before it, in its commit
        try:
            played = engine_play(game, state, entry.seat, entry.move)
        except IllegalMove:
            return entry.version  # cannot be replayed: not provably safe
        if not game.takeback_safe(state, played.state):
            return entry.version
        state = played.state
    return None


def not_alone(game: Game[Any, Any], state: Any, chosen: Plan) -> str | None:
    """Why the seat may not take `chosen` back alone (None: it may): `state` is the state at
    its version. Game records judge their takeback steps with it too (game_records.py)."""
    if chosen.others_decided:
        return "another seat decided since"
    unsafe = unsafe_step(game, state, chosen.undone)
    if unsafe is not None:
        return f"version {unsafe} revealed hidden information or drew on chance"
    return None


def takes_at_once(policy: str, players: int, bots: Iterable[int], seat: int) -> bool:
    """Whether a takeback that needs consent is taken at once: WITH_CONSENT and no other
    human seat to ask (bots accept)."""
    humans = [s for s in range(players) if s != seat and s not in set(bots)]
    return policy == "WITH_CONSENT" and not humans


def _entry(version: int, seat: int, label: str, note: TakebackNote, by: str = "") -> HistoryRecord:
    return HistoryRecord(version, seat, None, label, event=EVENT, acted_by=by, takeback=note)


def _step_record(record: Record, request: TakebackRequest | None) -> Record:
    """A version of the game that only records a step of a request: the state, the clock and
    `updated` as they were (the seat on the clock is charged from its turn's start)."""
    return msgspec.structs.replace(
        record, format=FORMAT, version=record.version + 1, takeback=request
    )


def taken_record(
    record: Record, game: Game[Any, Any], state: Any, to_version: int, now: float
) -> Record:
    """The game back at the state of `to_version`, one version on, its clock restored."""
    back = msgspec.structs.replace(
        record,
        format=FORMAT,
        version=record.version + 1,
        finished=game.is_over(state),
        state=encode_state(state),
        updated=now,
        acting=acting(game, state),
        takeback=None,
    )
    return clocks.restored(record, back, to_version, now)


def _request_fingerprint(game_id: str, seat: int, what: str, expected: int | None) -> str:
    return fingerprint(game_id, seat, {"takeback": what}, expected)


async def ask(
    service: GameService,
    game_id: str,
    caller: Caller,
    expected_version: int | None,
    idempotency_key: str | None,
    now: float | None = None,
) -> Applied:
    """requestTakeback: the caller's seat takes back its last decision, alone when the policy
    and the game allow it, else (WITH_CONSENT) asks the other human seats."""
    return await _run(service, game_id, caller, "ask", expected_version, idempotency_key, now)


async def answer(
    service: GameService,
    game_id: str,
    caller: Caller,
    accept: bool,
    expected_version: int | None,
    idempotency_key: str | None,
    now: float | None = None,
) -> Applied:
    """answerTakeback: the caller's seat accepts or declines the pending request."""
    what = "accept" if accept else "decline"
    return await _run(service, game_id, caller, what, expected_version, idempotency_key, now)


async def _run(
    service: GameService,
    game_id: str,
    caller: Caller,
    what: str,
    expected_version: int | None,
    idempotency_key: str | None,
    now: float | None,
) -> Applied:
    service.check_idempotency_key(idempotency_key)
    for _ in range(3):  # without an expected version, a lost race is retried
        record, done = await service.load_for(game_id, caller, idempotency_key)
        seat = service.seat_for(game_id, record, caller)
        by = ACTED_BY_TENANT if caller.for_tenant else ""
        applied = await _decide(
            service, game_id, record, seat, done, what, expected_version, idempotency_key, by, now
        )
        if applied is not None:
            return applied
    raise Refused(Code.STALE_VERSION, "other decisions kept winning the race; try again")


async def _decide(
    service: GameService,
    game_id: str,
    record: Record,
    seat: int,
    done: Done | None,
    what: str,
    expected_version: int | None,
    idempotency_key: str | None,
    by: str,
    now: float | None,
) -> Applied | None:
    game = games()[record.kind]
    asked = _request_fingerprint(game_id, seat, what, expected_version)
    if done is not None:
        return await service.replayed(game_id, record, game, seat, done, asked)
    if expected_version is not None and expected_version != record.version:
        raise stale(record.version, expected_version)
    if record.outcome is not None:
        raise ended(record)
    if record.finished:
        raise Refused(Code.GAME_OVER, "the game is over", record.version)
    playable(game_id, record, game)
    if record.takebacks == "NONE":
        raise Refused(
            Code.TAKEBACK_NOT_ALLOWED,
            "this game was created without takebacks (createGame takebacks)",
            record.version,
        )
    at = time.time() if now is None else now
    if what == "ask":
        new_record, entry, state = await _asked(service, game_id, record, game, seat, at)
    else:
        new_record, entry, state = await _answered(
            service, game_id, record, game, seat, what == "accept", at
        )
    entry = msgspec.structs.replace(entry, acted_by=by)
    field_key = None if idempotency_key is None else f"{seat}:{idempotency_key}"
    # a bot to act keeps its turn on every new version (its job at the old one is stale now):
    # after a request too, which its decision then ends, as anyone's does
    due = bot_due(game, decode_state(game, record.state) if state is None else state, record.bots)
    committed = await service.store.commit(
        game_id,
        record.version,
        new_record,
        [entry],
        field_key,
        asked,
        bot_due=due,
        events=webhook_events(game_id, record, new_record, [entry]),
    )
    if committed.outcome == "ok":
        if state is not None:
            metrics.TAKEBACKS.labels(record.kind).inc()
        return Applied(LoadedGame(game_id, new_record, game, seat, state))
    if committed.outcome == "gone":
        raise not_found(game_id)
    if committed.outcome == "dup":
        return None
    if expected_version is not None:
        raise Refused(
            Code.STALE_VERSION,
            f"another decision was accepted first; the game is at version {committed.version}",
            committed.version,
        )
    return None


async def _asked(
    service: GameService,
    game_id: str,
    record: Record,
    game: Game[Any, Any],
    seat: int,
    now: float,
) -> tuple[Record, HistoryRecord, Any]:
    """The new record and entry of a request; the state restored if it is taken at once
    (None: a request now waits for answers)."""
    if pending(record, now) is not None:
        raise Refused(
            Code.TAKEBACK_NOT_ALLOWED,
            "a takeback request is waiting for answers: answer it, or wait until it lapses",
            record.version,
        )
    entries = await service.store.history(game_id, 0, record.version)
    chosen = plan(entries, seat)
    state = await service.state_at(LoadedGame(game_id, record, game, seat), chosen.to_version)
    version = record.version + 1
    why = not_alone(game, state, chosen)
    if why is None or takes_at_once(record.takebacks, record.players, record.bots, seat):
        agreed = [] if why is None else sorted(record.bots)
        note = TakebackNote(TAKEN, chosen.to_version, seat, agreed)
        label = _taken_label(seat, chosen.to_version, agreed)
        back = taken_record(record, game, state, chosen.to_version, now)
        return back, _entry(version, seat, label, note), state
    if record.takebacks != "WITH_CONSENT":
        raise Refused(
            Code.TAKEBACK_NOT_ALLOWED,
            f"seat {seat} may not take back alone: {why} (takebacks OWN_DECISIONS)",
            record.version,
        )
    request = TakebackRequest(
        seat, chosen.to_version, version, now + service.takeback_seconds, sorted(record.bots)
    )
    note = TakebackNote(ASKED, chosen.to_version, seat, list(request.accepted))
    label = COMMON.english("history.takebackAsked", seat=seat, version=chosen.to_version)
    return _step_record(record, request), _entry(version, seat, label, note), None


async def _answered(
    service: GameService,
    game_id: str,
    record: Record,
    game: Game[Any, Any],
    seat: int,
    accept: bool,
    now: float,
) -> tuple[Record, HistoryRecord, Any]:
    request = pending(record, now)
    if request is None:
        raise Refused(
            Code.TAKEBACK_NOT_ALLOWED, "no takeback request is waiting for answers", record.version
        )
    if seat not in waiting_for(record, request):
        raise Refused(
            Code.TAKEBACK_NOT_ALLOWED,
            f"seat {seat} has no answer to give to this request",
            record.version,
        )
    version, to_version = record.version + 1, request.to_version
    if not accept:
        note = TakebackNote(DECLINED, to_version, request.seat, list(request.accepted))
        label = COMMON.english("history.takebackDeclined", seat=seat, asker=request.seat)
        return _step_record(record, None), _entry(version, seat, label, note), None
    accepted = sorted([*request.accepted, seat])
    request = msgspec.structs.replace(request, asked=version, accepted=accepted)
    if waiting_for(record, request):
        note = TakebackNote(ACCEPTED, to_version, request.seat, accepted)
        label = COMMON.english("history.takebackAccepted", seat=seat, asker=request.seat)
        return _step_record(record, request), _entry(version, seat, label, note), None
    state = await service.state_at(LoadedGame(game_id, record, game, seat), to_version)
    note = TakebackNote(TAKEN, to_version, request.seat, accepted)
    label = _taken_label(request.seat, to_version, accepted)
    back = taken_record(record, game, state, to_version, now)
    return back, _entry(version, request.seat, label, note), state


def _taken_label(seat: int, to_version: int, agreed: list[int]) -> str:
    if not agreed:
        return COMMON.english("history.tookBack", seat=seat, version=to_version)
    if len(agreed) == 1:
        return COMMON.english(
            "history.tookBackAgreedBySeat", seat=seat, version=to_version, agreed=agreed[0]
        )
    return COMMON.english(
        "history.tookBackAgreedBySeats", seat=seat, version=to_version, agreed=list(agreed)
    )


def request_json(record: Record, now: float | None = None) -> dict[str, Any] | None:
    """The pending request as both APIs show it (public: who asked, back to which version,
    who agreed, who must still answer, when it lapses)."""
    request = pending(record, time.time() if now is None else now)
    if request is None:
        return None
    return {
        "seat": request.seat,
        "toVersion": request.to_version,
        "acceptedBy": request.accepted,
        "waitingFor": waiting_for(record, request),
        "expires": request.expires,
    }


def note_json(note: TakebackNote | None) -> dict[str, Any] | None:
    """A history entry's takeback, as both APIs show it."""
    if note is None:
        return None
    return {
        "step": note.step,
        "toVersion": note.to_version,
        "askedBy": note.asked_by,
        "agreedBy": note.agreed_by,
    }
