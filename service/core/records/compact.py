"""Compact game records: a game record (documents.py) in a few hundred bytes, for an archive
that keeps every game (docs/architecture.md "Compact records").

What a replay can work out is left out: the digests, the forced steps (RULINGS ALL-3), the
versions, the seed's commitment, the setup digest and the result. What is left is a short
msgpack header (the kind, its rules, the seats, the options, the bots, the clock, the takeback
policy, the times, the seed and the salt) and the steps, each a choice among what the position
allows: a decision is its index in the legal moves of the seats to act (the engine's order),
an ending, a timeout or a takeback step is one of a few escapes after them. The choices are
written as one number in mixed radix (each choice a digit whose base is the number of
choices it had), so a step costs log2 of its choices in bits, not a byte: Lichess stores its
moves the same way, by their index in the legal-move list.

`pack` checks its work: the record `unpack` makes of the bytes must be the document given,
byte for byte, or it raises. `unpack` replays the record as `verify` does and checks a 4-byte
checksum of the whole and of the state the steps end in, so a damaged or hostile blob is a
CompactError (a damaged one that passes: one chance in 2**32), not a wrong record.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any, cast

import msgspec

from service.bots import STRATEGIES
from service.core.game.clocks import ON_TIMEOUT
from service.core.records.format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_STEPS,
    GameRecord,
    RecordBot,
    RecordClock,
    RecordResult,
    RecordSeed,
    RecordStep,
    RecordTakeback,
    Unverifiable,
    as_json,
    commitment,
    iso_time,
)
from service.core.records.replay import Replay, forced_now
from service.core.takebacks import policy as takebacks
from service.engine import BadSetup
from service.games import game_for, games
from service.store.records import ACTED_BY_TENANT

CODEC = 1  # the header's first field: a new one for any change a reader must know
CHECK_BYTES = 4
HEX = re.compile("(?:[0-9a-f]{2})*")  # a seed or salt the service made: kept as its bytes


class Packed(msgspec.Struct, array_like=True, frozen=True):
    """A compact record: a msgpack array, all but the steps' number the record's setup."""

    codec: int
    kind: str
    rules: int
    players: int
    options: dict[str, Any]
    bots: list[tuple[int, int]]  # (seat, index in STRATEGIES)
    clock: tuple[float | None, float | None, float, int] | None  # ..., index in ON_TIMEOUT
    policy: int  # index in takebacks.POLICIES
    created: int | None  # epoch milliseconds
    ended: int | None
    hex_seed: int  # bit 0: `seed` is the bytes of a hex seed; bit 1: `salt` is
    seed: bytes
    salt: bytes
    number: bytes  # the steps' choices (_number)
    check: bytes  # of the rest and the last state's digest (_check): damage shows

    def text(self, which: int) -> str:
        raw = self.salt if which else self.seed
        return raw.hex() if self.hex_seed >> which & 1 else raw.decode()


class CompactError(ValueError):
    """Bytes that are no compact record of this release, or a record that has no compact form
    (it does not replay as the service plays)."""


def pack(document: GameRecord) -> bytes:
    """The compact form of `document` (a record `documents.export` made), checked: its unpacked
    record is `document` again, byte for byte (game_id aside: the archive keys it). A signature
    is left out: the archive signs a record again as it exports it."""
    document = msgspec.structs.replace(document, signature=msgspec.UNSET)
    if document.kind not in games():
        raise CompactError(f"unknown kind {document.kind}")
    game = game_for(document.kind, document.rules)
    clock, seed = document.clock, document.seed
    setup = Packed(
        codec=CODEC,
        kind=document.kind,
        rules=document.rules,
        players=document.players,
        options=document.options,
        bots=[(bot.seat, STRATEGIES.index(bot.strategy)) for bot in document.bots],
        clock=None
        if clock is None
        else (
            clock.per_decision_seconds,
            clock.per_seat_total_seconds,
            clock.increment_seconds,
            ON_TIMEOUT.index(clock.on_timeout),
        ),
        policy=takebacks.POLICIES.index(document.takebacks),
        created=_millis(document.created),
        ended=_millis(document.ended),
        hex_seed=bool(HEX.fullmatch(seed.seed)) | bool(HEX.fullmatch(seed.salt)) << 1,
        seed=_raw(seed.seed),
        salt=_raw(seed.salt),
        number=b"",
        check=b"",
    )
    replay = _replay(game, setup)
    digits: list[tuple[int, int]] = []
    steps = iter(document.steps)

    def forced_follow() -> None:
        for forced in _forced_steps(replay):
            if next(steps, None) != forced:
                raise CompactError(f"version {forced.version}: not the forced step due")

    forced_follow()
    for step in steps:
        digits.extend(_choice(replay, step))
        _play(replay, step)
        forced_follow()
    setup = msgspec.structs.replace(setup, number=_number(digits))
    packed = msgspec.msgpack.encode(msgspec.structs.replace(setup, check=_check(setup, replay)))
    again = unpack(packed, document.game_id)
    if msgspec.json.encode(again) != msgspec.json.encode(document):
        raise CompactError("the packed record does not unpack to the same document")
    return packed


def unpack(data: bytes, game_id: str | None = None) -> GameRecord:
    """The game record `pack` packed, replayed and with its digests and result again."""
    try:
        setup = msgspec.msgpack.decode(data, type=Packed)
        if msgspec.msgpack.encode(setup) != data:  # e.g. a uint64 marker flipped to int64
            raise CompactError("damaged: not the bytes pack writes")
        if setup.codec != CODEC:
            raise CompactError(f"codec {setup.codec}: this release reads codec {CODEC}")
        game = game_for(setup.kind, setup.rules)
        clock = setup.clock
        seed, salt = setup.text(0), setup.text(1)
        document = GameRecord(
            format=FORMAT_NAME,
            format_version=FORMAT_VERSION,
            game_id=game_id,
            kind=setup.kind,
            rules=setup.rules,
            players=setup.players,
            options=setup.options,
            bots=[RecordBot(seat=seat, strategy=STRATEGIES[s]) for seat, s in setup.bots],
            clock=None
            if clock is None
            else RecordClock(
                per_decision_seconds=clock[0],
                per_seat_total_seconds=clock[1],
                increment_seconds=clock[2],
                on_timeout=ON_TIMEOUT[clock[3]],
            ),
            takebacks=takebacks.POLICIES[setup.policy],
            created=None if setup.created is None else iso_time(setup.created / 1000),
            ended=None if setup.ended is None else iso_time(setup.ended / 1000),
            seed=RecordSeed(seed=seed, salt=salt, commitment=commitment(salt, seed)),
            setup_digest="",
            steps=[],
            result=RecordResult(status="FINISHED", version=0, scores=None),
        )
        replay = _replay(game, setup)
        document.setup_digest = replay.setup_digest()
        document.steps = list(_steps(replay, Digits(int.from_bytes(setup.number, "little"))))
        if _check(setup, replay) != setup.check:
            raise CompactError("damaged: the check does not match")
        document.result = RecordResult(
            status=replay.status(),
            version=replay.version,
            scores=as_json(game.scores(replay.state)),
            outcome=replay.outcome(),
        )
        # every field checked as a record's reader checks it
        return msgspec.convert(msgspec.to_builtins(document), GameRecord)
    except CompactError:
        raise
    except (msgspec.DecodeError, KeyError, IndexError, ValueError, OverflowError) as exc:
        raise CompactError(f"not a compact record: {exc}") from None
    except (Unverifiable, BadSetup) as exc:
        raise CompactError(f"the record does not replay: {exc}") from None


class Digits:
    """The choices of a packed record, read back in the order they were made."""

    def __init__(self, number: int) -> None:
        self.number = number

    def read(self, base: int) -> int:
        self.number, digit = divmod(self.number, base)
        return digit


def _number(digits: list[tuple[int, int]]) -> bytes:
    """The choices (digit, base) as one little-endian number in mixed radix: the first
    choice is the lowest digit, so a reader learns each base by replaying before it reads."""
    number, weight = 0, 1
    for digit, base in digits:
        number += digit * weight
        weight *= base
    return number.to_bytes((number.bit_length() + 7) // 8, "little")


def _replay(game: Any, setup: Packed) -> Replay:
    on_timeout = None if setup.clock is None else ON_TIMEOUT[setup.clock[3]]
    bots = {seat for seat, _ in setup.bots}
    policy = takebacks.POLICIES[setup.policy]
    return Replay(game, setup.players, setup.options, setup.text(0), bots, on_timeout, policy)


def _moves(replay: Replay) -> list[tuple[int, Any]]:
    """Every decision the position allows: (seat, move as JSON), the seats to act in order,
    each seat's moves in the engine's order."""
    game, state = replay.game, replay.state
    return [
        (seat, as_json(move))
        for seat in game.to_act(state)
        for move in game.legal_moves(state, seat)
    ]


def _escapes(replay: Replay) -> list[str]:
    """The steps other than a decision the position allows."""
    escapes = ["RESIGNED", "ABANDONED", ACTED_BY_TENANT]
    if replay.policy != "NONE":
        escapes.append(takebacks.EVENT)
    if replay.on_timeout is not None:
        escapes.append("TIMEOUT")
    return escapes


def _choice(replay: Replay, step: RecordStep) -> Iterator[tuple[int, int]]:
    """The digits of `step` (not a forced one) in the position `replay` is at."""
    if replay.ending is not None or replay.game.is_over(replay.state):
        raise CompactError(f"version {step.version}: a step after the game ended")
    moves, escapes = _moves(replay), _escapes(replay)
    base = len(moves) + len(escapes)

    def escape(name: str) -> tuple[int, int]:
        if name not in escapes:
            raise CompactError(f"version {step.version}: no {name} step here")
        return len(moves) + escapes.index(name), base

    if step.acted_by:
        yield escape(ACTED_BY_TENANT)
    if step.takeback is not None:
        note = step.takeback
        yield escape(takebacks.EVENT)
        players = replay.players
        yield takebacks.STEPS.index(note.step), len(takebacks.STEPS)
        yield step.seat, players
        yield note.to_version, replay.version + 1
        yield note.asked_by, players
        yield sum(1 << seat for seat in note.agreed_by), 1 << players
    elif step.event == "TIMEOUT":
        yield escape("TIMEOUT")
        if step.move is not None:
            own = [move for seat, move in moves if seat == step.seat]
            if step.move not in own:
                raise CompactError(f"version {step.version}: no such timeout move here")
            yield own.index(step.move), len(own)
    elif step.event in ("RESIGNED", "ABANDONED"):
        yield escape(step.event)
        if step.event == "RESIGNED":
            yield step.seat, replay.players
    elif step.event is None and (step.seat, step.move) in moves:
        yield moves.index((step.seat, step.move)), base
    else:
        raise CompactError(f"version {step.version}: no such decision here")


def _steps(replay: Replay, digits: Digits) -> Iterator[RecordStep]:
    """The steps of a packed record: its choices read back as the replay goes, each with the
    forced steps after it."""
    game = replay.game
    yield from _forced_steps(replay)
    while replay.ending is None and not game.is_over(replay.state):
        if replay.version >= MAX_STEPS:
            raise CompactError(f"over {MAX_STEPS} steps")
        step = _read(replay, digits)
        _play(replay, step)
        yield step
        yield from _forced_steps(replay)
    if digits.number:
        raise CompactError("choices left after the game ended")


def _read(replay: Replay, digits: Digits) -> RecordStep:
    moves, escapes = _moves(replay), _escapes(replay)
    version = replay.version + 1
    acted_by = None
    chosen = digits.read(len(moves) + len(escapes))
    if chosen >= len(moves) and escapes[chosen - len(moves)] == ACTED_BY_TENANT:
        acted_by = ACTED_BY_TENANT
        chosen = digits.read(len(moves) + len(escapes))
    if chosen < len(moves):
        seat, move = moves[chosen]
        return RecordStep(version=version, seat=seat, move=move, acted_by=acted_by, digest="")
    event = escapes[chosen - len(moves)]
    if event == takebacks.EVENT:
        players = replay.players
        step = takebacks.STEPS[digits.read(len(takebacks.STEPS))]
        seat = digits.read(players)
        to_version = digits.read(version)
        asked_by = digits.read(players)
        mask = digits.read(1 << players)
        note = RecordTakeback(
            step=cast(Any, step),
            to_version=to_version,
            asked_by=asked_by,
            agreed_by=[s for s in range(players) if mask >> s & 1],
        )
        return RecordStep(
            version=version, seat=seat, event=event, acted_by=acted_by, takeback=note, digest=""
        )
    if event == "TIMEOUT":
        seat = replay.game.to_act(replay.state)[0]
        move = None
        if replay.on_timeout != "FORFEIT":
            own = [m for s, m in moves if s == seat]
            move = own[digits.read(len(own))]
        return RecordStep(
            version=version, seat=seat, move=move, event=event, acted_by=acted_by, digest=""
        )
    if event == ACTED_BY_TENANT:
        raise CompactError(f"version {version}: acted by the tenant twice")
    seat = digits.read(replay.players) if event == "RESIGNED" else -1
    return RecordStep(version=version, seat=seat, event=event, acted_by=acted_by, digest="")


def _forced_steps(replay: Replay) -> Iterator[RecordStep]:
    """The forced steps due now (RULINGS ALL-3), each played."""
    while replay.ending is None and (forced := forced_now(replay.game, replay.state)) is not None:
        seat, move = forced
        step = RecordStep(
            version=replay.version + 1, seat=seat, move=as_json(move), forced=True, digest=""
        )
        _play(replay, step)
        yield step


def _play(replay: Replay, step: RecordStep) -> None:
    """`step` played on `replay`, with its digest after it."""
    replay.play(step)
    step.digest = replay.digest


def _check(setup: Packed, replay: Replay) -> bytes:
    """A checksum of the record: its setup, its steps' number and the state they end in."""
    rest = msgspec.msgpack.encode(msgspec.structs.replace(setup, check=b""))
    return hashlib.sha256(rest + replay.digest.encode()).digest()[:CHECK_BYTES]


def _millis(iso: str | None) -> int | None:
    return None if iso is None else round(datetime.fromisoformat(iso).timestamp() * 1000)


def _raw(text: str) -> bytes:
    return bytes.fromhex(text) if HEX.fullmatch(text) else text.encode()


__all__ = ["CompactError", "pack", "unpack"]
