"""What the store keeps per game. Every record carries FORMAT; new fields get defaults so
records written by earlier releases still decode (DESIGN.md, "Storage")."""

from __future__ import annotations

import hashlib
import zlib
from typing import Any

import msgspec

FORMAT = 1


class Record(msgspec.Struct, array_like=True):
    format: int
    kind: str
    players: int
    version: int
    finished: bool
    seed: str  # kept for audits and replays; never shown while the game runs
    token_hashes: list[bytes]  # sha256 of each seat's token secret, by seat
    state: bytes  # the game's State, msgpack
    created: float
    updated: float
    bots: dict[int, str] = msgspec.field(default_factory=dict)  # seat -> strategy
    # create options as sent, to rebuild the game at any version from the seed (idempotent
    # replays); None in records of earlier releases
    options: Any = None


class HistoryRecord(msgspec.Struct, array_like=True):
    version: int
    seat: int
    move: Any  # the move as JSON-ready builtins
    label: str
    forced: bool = False


class FoldedHistory(msgspec.Struct, array_like=True):
    """The history of a finished game in one compressed value beside its record (issue 21):
    entries [seat, move, forced] of versions first, first + 1, ... `labels` are the stored
    labels in order, or None when the engine gives them back by replaying the seed and the
    moves; then `digest` (label_digest) tells whether the replay gave the labels shown."""

    format: int
    first: int
    entries: list[tuple[int, Any, bool]]
    labels: list[str] | None = None
    digest: bytes = b""


record_encoder = msgspec.msgpack.Encoder()
record_decoder = msgspec.msgpack.Decoder(Record)
history_decoder = msgspec.msgpack.Decoder(HistoryRecord)
_folded_decoder = msgspec.msgpack.Decoder(FoldedHistory)


def label_digest(labels: list[str]) -> bytes:
    return hashlib.blake2b("\n".join(labels).encode(), digest_size=8).digest()


def fold(entries: list[HistoryRecord], labelled: bool) -> bytes:
    """The compressed value of a whole history (entries of consecutive versions); without
    the labels unless `labelled`."""
    labels = [e.label for e in entries]
    folded = FoldedHistory(
        FORMAT,
        entries[0].version if entries else 1,
        [(e.seat, e.move, e.forced) for e in entries],
        labels if labelled else None,
        b"" if labelled else label_digest(labels),
    )
    return zlib.compress(record_encoder.encode(folded), 9)


def unfold(blob: bytes) -> tuple[list[HistoryRecord], bytes | None]:
    """The entries of a folded history and, if their labels were left out (""), the digest
    of those labels."""
    folded = _folded_decoder.decode(zlib.decompress(blob))
    labels = folded.labels or [""] * len(folded.entries)
    entries = [
        HistoryRecord(folded.first + i, seat, move, label, forced)
        for i, ((seat, move, forced), label) in enumerate(zip(folded.entries, labels, strict=True))
    ]
    return entries, None if folded.labels is not None else folded.digest
