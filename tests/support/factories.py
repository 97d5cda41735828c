"""Store records for the store tests, written once: a game's record at a version and a history
entry, with what a test needs set by keyword."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.store import FORMAT, HistoryRecord, Record


def record(
    version: int,
    *,
    finished: bool = False,
    token_hashes: Sequence[bytes] = (b"a", b"b"),
    **fields: Any,
) -> Record:
    """A two-seat TREELINGS record at `version`; `fields` sets any other field of the Record
    (tenant, player_ids, acting, bots, ...)."""
    return Record(
        FORMAT, "TREELINGS", 2, version, finished, "seed", list(token_hashes), b"s", 1.0, 1.0,
        **fields,
    )  # fmt: skip


def history_entry(version: int, seat: int = 0) -> HistoryRecord:
    """The history entry of the decision that made `version`."""
    return HistoryRecord(version, seat, {"type": "x"}, f"move {version}")
