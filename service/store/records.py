"""What the store keeps per game. Every record carries FORMAT; new fields get defaults so
records written by earlier releases still decode (DESIGN.md, "Storage")."""

from __future__ import annotations

from typing import Any

import msgspec

FORMAT = 1


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
    # fair seeds: drawn with the seed when the client gave none; the commitment is
    # sha256(salt + seed), both revealed when the game is over (docs/api.md)
    salt: str = ""
    clock: Clock | None = None
    remaining: list[float] = msgspec.field(default_factory=list)  # per seat, perSeatTotal clocks
    deadline: float | None = None  # epoch seconds when the seat on the clock times out

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


record_encoder = msgspec.msgpack.Encoder()
record_decoder = msgspec.msgpack.Decoder(Record)
history_decoder = msgspec.msgpack.Decoder(HistoryRecord)
