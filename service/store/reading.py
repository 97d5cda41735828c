"""Reading a game's stored values back: one way to fail for a value this release cannot
decode (UnreadableRecord), the record with its reissued tokens, a listing's index members and
the records of its games, and a game's past: its history (a list, or folded once the game
ended) and its checkpoints. The keys are laid out in service/store/redis_store.py.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from service import metrics
from service.store.commands import Commands
from service.store.connection import UnreadableRecord
from service.store.records import (
    CHECKPOINT_EVERY,
    Checkpoint,
    HistoryRecord,
    Record,
    checkpoint_decoder,
    history_decoder,
    record_decoder,
    unfold,
    unfold_checkpoints,
)

T = TypeVar("T")
log = logging.getLogger("service.store")
_reissued_decoder = msgspec.json.Decoder(dict[int, str])


def game_keys(game_id: str) -> tuple[str, str, str, str]:
    """The keys of one game: record, history, idempotency, checkpoints."""
    base = f"g:{{{game_id}}}"
    return base, f"{base}:h", f"{base}:i", f"{base}:c"


def decoded(game_id: str, what: str, decode: Callable[[], T]) -> T:
    """`decode()`, or UnreadableRecord when the stored value cannot be read (damaged, or
    written by another release): logged in one line with the game id, no traceback, and
    counted, once per read."""
    try:
        return decode()
    except (msgspec.DecodeError, zlib.error, ValueError, TypeError) as exc:
        metrics.UNREADABLE_RECORDS.labels(what).inc()
        log.warning("%s of game %s unreadable (%s: %s)", what, game_id, type(exc).__name__, exc)
        raise UnreadableRecord(game_id, what) from None


def decode_record(game_id: str, raw: bytes) -> Record:
    return decoded(game_id, "record", lambda: record_decoder.decode(raw))


def with_reissued(game_id: str, record: Record, raw: bytes | None) -> Record:
    """`record` with the token hashes of the seats whose token was reissued (field t)."""
    if raw is None:
        return record
    reissued = decoded(game_id, "tokens", lambda: _reissued_decoder.decode(raw))
    hashes = list(record.token_hashes)
    for seat, digest in reissued.items():
        if 0 <= seat < len(hashes):
            hashes[seat] = bytes.fromhex(digest)
    return msgspec.structs.replace(record, token_hashes=hashes)


async def listed(
    commands: Commands, reads: list[tuple[str, str | None]], floor: str | None, count: int
) -> list[list[str]]:
    """Per (index key, below) of `reads`, up to `count` members of the key newest first:
    below `below` (exclusive; None: from the newest) and from `floor` on. One pipelined
    ZRANGE per key."""
    bottom = f"[{floor}" if floor else "-"

    async def fetch() -> list[Any]:
        async with commands.redis.pipeline(transaction=False) as pipe:
            for key, below in reads:
                top = f"({below}" if below else "+"
                pipe.zrange(key, top, bottom, desc=True, bylex=True, offset=0, num=count)
            replies: list[Any] = await pipe.execute()
            return replies

    replies = await commands.timed("index", fetch)
    return [[m.decode() for m in members] for members in replies]


async def records(
    commands: Commands, game_ids: list[str]
) -> list[Record | UnreadableRecord | None]:
    """The records of `game_ids` (None for a game that expired, the refusal for one that
    cannot be read), pipelined; their token hashes as created (no reissued ones: `load`
    is the read that authorizes)."""
    if not game_ids:
        return []

    async def fetch() -> list[Any]:
        async with commands.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hget(game_keys(game_id)[0], "r")
            replies: list[Any] = await pipe.execute()
            return replies

    replies = await commands.timed("records", fetch)
    found: list[Record | UnreadableRecord | None] = []
    for game_id, raw in zip(game_ids, replies, strict=True):
        try:
            found.append(None if raw is None else decode_record(game_id, raw))
        except UnreadableRecord as unreadable:
            found.append(unreadable)
    return found


async def read_history(
    commands: Commands, game_id: str, after: int = 0, until: int | None = None
) -> tuple[list[HistoryRecord], bytes | None]:
    """Entries of versions after `after` up to `until` (inclusive; None: the latest), and
    None if they carry their labels, else the digest of the labels left to the engine
    (a folded history: service/core/game/folding.py)."""
    record_key, history_key, _, _ = game_keys(game_id)
    last = -1 if until is None else until - 1

    # The list first: `fold` writes the folded value and drops the list in one step, so
    # an empty list read before the folded value never misses a history.
    async def fetch() -> list[Any]:
        async with commands.redis.pipeline(transaction=False) as pipe:
            pipe.lrange(history_key, after, last)
            pipe.hget(record_key, "h")
            replies: list[Any] = await pipe.execute()
            return replies

    raw, folded = await commands.timed("history", fetch)
    if raw or folded is None:
        return decoded(game_id, "history", lambda: [history_decoder.decode(i) for i in raw]), None
    entries, digest = decoded(game_id, "history", lambda: unfold(folded))
    newest = entries[-1].version if entries else 0
    until = newest if until is None else until
    return [e for e in entries if after < e.version <= until], digest


async def checkpoints(commands: Commands, game_id: str) -> list[Checkpoint]:
    """Every checkpoint of a game whose history is not folded yet, oldest first."""
    key = game_keys(game_id)[3]
    raw: list[Any] = await commands.timed("checkpoints", lambda: commands.redis.hvals(key))
    found = decoded(game_id, "checkpoint", lambda: [checkpoint_decoder.decode(c) for c in raw])
    return sorted(found, key=lambda checkpoint: checkpoint.version)


async def checkpoint(commands: Commands, game_id: str, version: int) -> Checkpoint | None:
    """The latest checkpoint at or below `version` (None: replay from the seed), in one
    round trip: the slot of `version` or the one before, or the folded checkpoints of a
    finished game."""
    record_key, _, _, checkpoints_key = game_keys(game_id)
    slot = version // CHECKPOINT_EVERY

    async def fetch() -> list[Any]:
        async with commands.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(checkpoints_key, [slot, slot - 1])
            pipe.hget(record_key, "c")
            replies: list[Any] = await pipe.execute()
            return replies

    (here, before), folded = await commands.timed("checkpoint", fetch)

    def decode() -> list[Checkpoint]:
        if folded is not None:
            return unfold_checkpoints(folded)
        return [checkpoint_decoder.decode(raw) for raw in (before, here) if raw is not None]

    usable = [c for c in decoded(game_id, "checkpoint", decode) if c.version <= version]
    return max(usable, key=lambda checkpoint: checkpoint.version, default=None)
