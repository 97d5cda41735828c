"""The steps of a takeback (docs/architecture.md "The path of a takeback"):
requestTakeback and answerTakeback, judged by the policy of takebacks/policy.py.

Each step (ASKED, ACCEPTED, DECLINED, TAKEN) is one version-checked commit with one history
entry (event TAKEBACK, a TakebackNote saying who asked and who agreed), idempotent with the same
keys and fingerprints moves use. The TAKEN step restores the clock of that version
(clocks.restored).
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import msgspec

from service import metrics
from service.core.game import clocks
from service.core.game.loaded_game import Applied, LoadedGame, acting
from service.core.game.past_versions import PastVersions
from service.core.moves.applying import replayed, stale
from service.core.moves.decisions import bot_due, ended, fingerprint, playable
from service.core.moves.opening import Opened, not_found
from service.core.takebacks.policy import (
    ACCEPTED,
    ASKED,
    DECLINED,
    EVENT,
    TAKEN,
    bots_decline,
    live,
    not_alone,
    own_decision,
    pending,
    plan,
    room_for,
    takes_at_once,
    waiting_for,
)
from service.engine import Game
from service.engine.play import decode_state, encode_state
from service.engine.texts import COMMON
from service.games import game_for
from service.refusals import Code, Refused
from service.store import FORMAT, HistoryRecord, Record, RedisStore
from service.store.records import MAX_STEPS, TakebackNote, TakebackRequest
from service.webhooks.events import of_commit as webhook_events


def _entry(version: int, seat: int, label: str, note: TakebackNote, by: str = "") -> HistoryRecord:
    return HistoryRecord(version, seat, None, label, event=EVENT, acted_by=by, takeback=note)


def _step_record(record: Record, request: TakebackRequest | None) -> Record:
    """A version of the game that only records a step of a request: the state, the clock and
    `updated` as they were (the seat on the clock is charged from its turn's start)."""
    return msgspec.structs.replace(
        record, format=FORMAT, version=record.version + 1, takeback=request
    )


def taken_record(
    record: Record,
    game: Game[Any, Any],
    state: Any,
    to_version: int,
    now: float,
    undone: list[HistoryRecord],
) -> Record:
    """The game back at the state of `to_version`, one version on, its clock going on
    (clocks.restored: the `undone` entries' decisions give back their increments)."""
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
    decided = Counter(entry.seat for entry in undone if own_decision(entry))
    return clocks.restored(record, back, to_version, now, dict(decided))


def _request_fingerprint(game_id: str, seat: int, what: str, expected: int | None) -> str:
    return fingerprint(game_id, seat, {"takeback": what}, expected)


async def decide(
    store: RedisStore,
    past_versions: PastVersions,
    seconds: float,
    game_id: str,
    opened: Opened,
    what: str,
    expected_version: int | None,
    idempotency_key: str | None,
    now: float | None = None,
) -> Applied | None:
    """One step on the opened game, committed: `what` is "ask" (requestTakeback: the seat
    takes back its last decision, alone when the policy and the game allow it, else, with
    WITH_CONSENT, it asks the other human seats; a request lapses after `seconds`), "accept"
    or "decline" (answerTakeback). None when another request won the race, as in
    moves/applying.decide."""
    record, done, seat, by = opened
    game = game_for(record.kind, record.rules)
    asked = _request_fingerprint(game_id, seat, what, expected_version)
    if done is not None:
        return await replayed(store, past_versions, game_id, record, game, seat, done, asked)
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
        new_record, entry, state = await _asked(
            store, past_versions, seconds, game_id, record, game, seat, at
        )
    else:
        new_record, entry, state = await _answered(
            past_versions, game_id, record, game, seat, what == "accept", at
        )
    entry = msgspec.structs.replace(entry, acted_by=by)
    field_key = None if idempotency_key is None else f"{seat}:{idempotency_key}"
    # a bot to act keeps its turn on every new version (its job at the old one is stale now):
    # after a request too, which its decision then ends, as anyone's does
    due = bot_due(game, decode_state(game, record.state) if state is None else state, record.bots)
    committed = await store.commit(
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
    store: RedisStore,
    past_versions: PastVersions,
    seconds: float,
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
    if not room_for(record):
        raise Refused(
            Code.TAKEBACK_NOT_ALLOWED,
            f"this game has {record.version} versions: no more takebacks, so that its record "
            f"(at most {MAX_STEPS} steps) still holds it",
            record.version,
        )
    entries = await store.history(game_id, 0, record.version)
    chosen = plan(entries, seat)
    state = await past_versions.state_at(LoadedGame(game_id, record, game, seat), chosen.to_version)
    version = record.version + 1
    why = not_alone(game, state, chosen)
    consent = why is not None and record.takebacks == "WITH_CONSENT"
    declined = bots_decline(game, state, chosen, record.bots) if consent else None
    if declined is not None:
        raise Refused(
            Code.TAKEBACK_NOT_ALLOWED, f"seat {seat} may not take back: {declined}", record.version
        )
    if why is None or takes_at_once(record.takebacks, record.players, record.bots, seat):
        agreed = [] if why is None else sorted(record.bots)
        note = TakebackNote(TAKEN, chosen.to_version, seat, agreed)
        label = _taken_label(seat, chosen.to_version, agreed)
        back = taken_record(record, game, state, chosen.to_version, now, chosen.undone)
        return back, _entry(version, seat, label, note), state
    if record.takebacks != "WITH_CONSENT":
        raise Refused(
            Code.TAKEBACK_NOT_ALLOWED,
            f"seat {seat} may not take back alone: {why} (takebacks OWN_DECISIONS)",
            record.version,
        )
    request = TakebackRequest(seat, chosen.to_version, version, now + seconds, sorted(record.bots))
    note = TakebackNote(ASKED, chosen.to_version, seat, list(request.accepted))
    label = COMMON.english("history.takebackAsked", seat=seat, version=chosen.to_version)
    return _step_record(record, request), _entry(version, seat, label, note), None


async def _answered(
    past_versions: PastVersions,
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
    state = await past_versions.state_at(LoadedGame(game_id, record, game, seat), to_version)
    entries = await past_versions.store.history(game_id, 0, record.version)
    undone = [entry for entry in live(entries) if entry.version > to_version]
    note = TakebackNote(TAKEN, to_version, request.seat, accepted)
    label = _taken_label(request.seat, to_version, accepted)
    back = taken_record(record, game, state, to_version, now, undone)
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
