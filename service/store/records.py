"""What the store keeps per game. Every record carries FORMAT; new fields get defaults so
records written by earlier releases still decode (docs/architecture.md, "Record format"),
and a record names the oldest release that may write it, so an older one never drops the
fields it does not know (docs/reliability.md, "Rolling upgrades")."""

from __future__ import annotations

import hashlib
import zlib
from typing import Any

import msgspec

# The record format of this release, and the oldest release that may write what it writes.
# Bump it whenever a stored Struct gains a field (Record, HistoryRecord, FoldedHistory,
# Checkpoint, a game's State): a release of an older format would decode a record without the
# new field and write it back without it. Every write names FORMAT in the record (`format`) and
# beside it in the game's hash (`w`, which the commit script compares), and a release refuses
# to write a record whose format is newer than its own (UpgradeInProgress). Readers of any
# format read newer records: msgspec ignores trailing fields it does not know. What each
# format added: docs/architecture.md, "Record format".
FORMAT = 4


END_REASONS = ("RESIGNED", "ABANDONED", "TIMEOUT")  # an Outcome's reasons


class Outcome(msgspec.Struct, array_like=True):
    """How a game ended other than by its rules: RESIGNED (seat), ABANDONED (by its tenant),
    TIMEOUT (seat forfeited on its clock). `winners` as the service decided them."""

    reason: str
    seat: int | None
    winners: list[int]


class Clock(msgspec.Struct, array_like=True):
    """A game's turn clock, as created (docs/api.md): one of the two limits, in seconds."""

    per_decision: float | None
    per_seat_total: float | None
    increment: float
    on_timeout: str  # AUTO_RANDOM, AUTO_GREEDY or FORFEIT


class TakebackRequest(msgspec.Struct, array_like=True):
    """A takeback a seat asked for under WITH_CONSENT, waiting for the other human seats
    (service/core/takebacks/policy.py). It lapses at `expires` (epoch seconds) or with the next
    decision of anyone: `asked` is the version its request made, and any other version voids it."""

    seat: int
    to_version: int  # the version whose state the takeback restores
    asked: int
    expires: float
    accepted: list[int]  # the seats that agreed so far (bots at once)


class TakebackNote(msgspec.Struct, array_like=True):
    """What a takeback entry of the history records: the step (ASKED, ACCEPTED, DECLINED or
    TAKEN), the version taken back to, who asked and, once TAKEN, who agreed."""

    step: str
    to_version: int
    asked_by: int
    agreed_by: list[int] = msgspec.field(default_factory=list)


class Bank(msgspec.Struct, array_like=True):
    """The seats' clocks at a version, so that a takeback gives back no time spent
    (service/core/game/clocks.py keeps the last few): under perSeatTotalSeconds each seat's bank
    as of the version; under perDecisionSeconds what each seat had left of its decision at the
    version when the game moved on from it (the seat on the clock's, the others' whole)."""

    version: int
    remaining: list[float]


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
    # the tenant (API key id) that created the game; "" in records of earlier releases,
    # which no listing shows (service/store/indexes.py)
    tenant: str = ""
    player_ids: list[str | None] = msgspec.field(default_factory=list)  # the app's user, by seat
    acting: list[int] = msgspec.field(default_factory=list)  # seats that owe a decision now
    outcome: Outcome | None = None  # set when a resign, abandon or timeout ended the game
    # fair seeds: drawn at create for every game (a client's seed too; "" in records of
    # releases that salted only the seeds they drew); the commitment is sha256(salt + seed),
    # both revealed when the game is over (docs/api.md)
    salt: str = ""
    clock: Clock | None = None
    remaining: list[float] = msgspec.field(default_factory=list)  # per seat, perSeatTotal clocks
    deadline: float | None = None  # epoch seconds when the seat on the clock times out
    # the RULES_VERSION of its kind's package when the game was created: it is played and
    # replayed only by those rules (service/core/moves/decisions.py, `playable`); 1 in records of
    # earlier releases, created under the first versioned rules
    rules: int = 1
    # takebacks (service/core/takebacks/policy.py): the create option (NONE in records of
    # earlier releases), the request waiting for consent, and the clocks of the latest versions
    # (Bank; none under perDecisionSeconds in records of earlier releases)
    takebacks: str = "NONE"
    takeback: TakebackRequest | None = None
    banks: list[Bank] = msgspec.field(default_factory=list)
    # versions a spectator (no seat, not the game's tenant) is kept behind the live game while
    # it is ACTIVE (service/core/access/keys.py, `spectator_delay`); 0 in records of earlier releases
    spectator_delay: int = 0

    def status(self) -> str:
        if self.outcome is not None and self.outcome.reason == "ABANDONED":
            return "ABANDONED"
        return "FINISHED" if self.finished else "ACTIVE"


class HistoryRecord(msgspec.Struct, array_like=True):
    version: int
    seat: int
    move: Any  # the move as JSON-ready builtins
    label: str
    forced: bool = False
    # "" for a decision; RESIGNED, ABANDONED or TIMEOUT for an entry that is no move of the
    # game's (move None, seat -1 for the tenant's abandon): replays stop there
    event: str = ""
    # "" for the seat itself (its token), a bot or the service; ACTED_BY_TENANT when the
    # game's tenant made the decision for the seat (X-API-Key acting as that seat)
    acted_by: str = ""
    # an entry of a takeback (event TAKEBACK, move None): its step, who asked and who agreed
    takeback: TakebackNote | None = None


ACTED_BY_TENANT = "TENANT"
# The most steps (versions) a game's history may reach: what a game record holds at most
# (service/core/records/format.py) and what takebacks stop short of (takebacks/policy.py)
MAX_STEPS = 5000


class FoldedHistory(msgspec.Struct, array_like=True):
    """The history of a finished game in one compressed value beside its record:
    entries [seat, move, forced] of versions first, first + 1, ... `labels` are the stored
    labels in order, or None when the engine gives them back by replaying the seed and the
    moves; then `digest` (label_digest) tells whether the replay gave the labels shown.
    `events` are the entries' events in order, None when none has one;
    `acted_by` the same for the entries' `acted_by`."""

    format: int
    first: int
    entries: list[tuple[int, Any, bool]]
    labels: list[str] | None = None
    digest: bytes = b""
    events: list[str] | None = None
    acted_by: list[str] | None = None
    takebacks: list[TakebackNote | None] | None = None  # the same for `takeback`


# Past states (GameService.at_version) replay from the latest checkpoint at or below the version
# asked: the state of the first committed version at or past each multiple of CHECKPOINT_EVERY,
# so a replay plays at most about that many decisions (docs/performance.md, "Past states").
CHECKPOINT_EVERY = 32


class Checkpoint(msgspec.Struct, array_like=True):
    """The game's State (msgpack, as in its Record) at a committed version: one a client could
    see, never a state inside a run of forced steps."""

    version: int
    state: bytes


def checkpoint_slot(before: int, after: int) -> int | None:
    """The slot (multiple of CHECKPOINT_EVERY, counted) a commit from version `before` to
    `after` fills, if it crosses one."""
    slot = after // CHECKPOINT_EVERY
    return slot if slot > before // CHECKPOINT_EVERY else None


record_encoder = msgspec.msgpack.Encoder()
record_decoder = msgspec.msgpack.Decoder(Record)
history_decoder = msgspec.msgpack.Decoder(HistoryRecord)
_folded_decoder = msgspec.msgpack.Decoder(FoldedHistory)
checkpoint_decoder = msgspec.msgpack.Decoder(Checkpoint)
_checkpoints_decoder = msgspec.msgpack.Decoder(list[Checkpoint])


def label_digest(labels: list[str]) -> bytes:
    return hashlib.blake2b("\n".join(labels).encode(), digest_size=8).digest()


def fold(entries: list[HistoryRecord], labelled: bool) -> bytes:
    """The compressed value of a whole history (entries of consecutive versions); without
    the labels unless `labelled`."""
    labels = [e.label for e in entries]
    events = [e.event for e in entries]
    acted_by = [e.acted_by for e in entries]
    takebacks = [e.takeback for e in entries]
    folded = FoldedHistory(
        FORMAT,
        entries[0].version if entries else 1,
        [(e.seat, e.move, e.forced) for e in entries],
        labels if labelled else None,
        b"" if labelled else label_digest(labels),
        events if any(events) else None,
        acted_by if any(acted_by) else None,
        takebacks if any(takebacks) else None,
    )
    return zlib.compress(record_encoder.encode(folded), 9)


def unfold(blob: bytes) -> tuple[list[HistoryRecord], bytes | None]:
    """The entries of a folded history and, if their labels were left out (""), the digest
    of those labels."""
    folded = _folded_decoder.decode(zlib.decompress(blob))
    labels = folded.labels or [""] * len(folded.entries)
    events = folded.events or [""] * len(folded.entries)
    acted_by = folded.acted_by or [""] * len(folded.entries)
    takebacks = folded.takebacks or [None] * len(folded.entries)
    entries = [
        HistoryRecord(folded.first + i, seat, move, label, forced, event, by, takeback)
        for i, ((seat, move, forced), label, event, by, takeback) in enumerate(
            zip(folded.entries, labels, events, acted_by, takebacks, strict=True)
        )
    ]
    return entries, None if folded.labels is not None else folded.digest


def fold_checkpoints(checkpoints: list[Checkpoint]) -> bytes:
    """A finished game's checkpoints in one compressed value (consecutive states share most of
    their bytes: 4-5x smaller than apart, which keeps a finished game within 4 KiB)."""
    return zlib.compress(record_encoder.encode(checkpoints), 9)


def unfold_checkpoints(blob: bytes) -> list[Checkpoint]:
    return _checkpoints_decoder.decode(zlib.decompress(blob))
