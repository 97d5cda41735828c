"""Portable game records: a game that is over, as one self-contained JSON document
that any instance (or `python -m service.replay`, offline) replays and verifies with the engine
alone, no Redis record needed.

The document names its format and version, the kind and the version of its rules, the create
options as sent, the seats' bots, the turn clock as created, the seed reveal (seed, salt and the commitment the game showed
from its start), every history entry (decisions, forced steps and the endings that are no move
of the rules: resign, timeout, abandon) with its version, and after each a digest of the whole
state (SHA-256 of its msgpack, hidden cards included: the game is over, RULINGS ALL-4), and the
result. A game with takebacks (service/core/takebacks/policy.py) holds its policy and each takeback
step (ASKED, ACCEPTED, DECLINED, TAKEN) with who asked and who agreed: the replay judges each
under the policy as the service does and restores the state a TAKEN step goes back to.
Player ids are left out: a record is made to be handed around (tournaments, disputes,
archives), and a player id is the tenant's name for its user, shown only to the tenant.

`verify` replays a document step by step and answers the FIRST step that differs, with a
reason from `PROBLEMS`, and beside it what the record's signature says (signing.py): a record
changed after signing is INVALID there and still replayed, since whether the game is legal and
who produced the record are separate answers. It is pure and CPU-bound: callers bound its input
(`MAX_STEPS`) and run it off the event loop (service/core/records/requests.py).
"""

from __future__ import annotations

from typing import Any, cast

import msgspec

from service.bots import Strategy
from service.core.records.format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_STEPS,
    GameRecord,
    RecordBot,
    RecordClock,
    RecordOutcome,
    RecordResult,
    RecordSeed,
    RecordStep,
    RecordTakeback,
    RecordVerification,
    Unverifiable,
    as_json,
    commitment,
    iso_time,
    json_text,
)
from service.core.records.replay import Replay
from service.core.records.signing import NO_KEYS, Keyring, unsigned
from service.engine import (
    BadSetup,
)
from service.games import game_for, games, versions
from service.store import HistoryRecord, Record
from service.store.records import (
    Outcome,
    TakebackNote,
)


def export(game_id: str, record: Record, entries: list[HistoryRecord]) -> GameRecord:
    """The record of a game that is over, from its stored record and whole history. Raises
    Unverifiable if the history does not replay under this release's rules (a server fault:
    the caller checked the rules version)."""
    game = game_for(record.kind, record.rules)
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
        created=iso_time(record.created),
        ended=iso_time(record.updated),
        seed=RecordSeed(
            seed=record.seed, salt=record.salt, commitment=commitment(record.salt, record.seed)
        ),
        setup_digest=setup,
        steps=steps,
        result=RecordResult(
            status=record.status(),
            version=record.version,
            scores=as_json(game.scores(replay.state)),
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


def verify(document: object, keys: Keyring = NO_KEYS) -> RecordVerification:
    """Replay `document` and say whether every step is legal and matches: the replayed final
    scores, or the first step that differs and why; and whether one of `keys` signed it."""
    signature, key_id = keys.check(document)
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
        scores = as_json(replay.game.scores(replay.state))
        _check_result(record.result, replay, scores)
    except Unverifiable as failed:
        return RecordVerification(
            valid=False,
            kind=kind,
            difference=failed.difference,
            signature=signature,
            key_id=key_id,
        )
    return RecordVerification(
        valid=True,
        kind=kind,
        version=replay.version,
        scores=scores,
        signature=signature,
        key_id=key_id,
    )


def _parse(document: object) -> GameRecord:
    if not isinstance(document, dict):
        raise Unverifiable(0, "MALFORMED", "a game record is a JSON object")
    document = unsigned(document)  # the signature is answered apart (Keyring.check)
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
    if record.kind not in games():
        raise Unverifiable(0, "UNKNOWN_KIND", f"this server hosts {', '.join(games())}")
    game = game_for(record.kind, record.rules)
    if record.rules != game.rules_version:
        kept = ", ".join(str(v) for v in versions()[record.kind])
        raise Unverifiable(
            0,
            "UNKNOWN_RULES_VERSION",
            f"this release plays versions {kept} of the rules of {record.kind}, not {record.rules}",
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
        raise Unverifiable(version, "SCORES_MISMATCH", f"the final scores are {json_text(scores)}")
