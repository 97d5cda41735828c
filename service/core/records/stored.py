"""A finished game's Redis hash as the archive keeps it (service/archive): without what a replay
gives back. Its checkpoints (field c) are a cache of past states, rebuilt when asked; its folded
history (field h) comes back from the compact record (compact.py) whenever the labels it holds
are the engine's (folding.replayable: a game with no resign, abandon, timeout or takeback),
checked byte for byte before the field is left out.
"""

from __future__ import annotations

from service.core.game.folding import replayable, replayed_steps
from service.core.records.compact import CompactError, unpack
from service.games import game_for
from service.store import HistoryRecord, Record
from service.store.reading import decode_record
from service.store.records import TakebackNote, fold

HISTORY, CHECKPOINTS = "h", "c"


def kept(game_id: str, fields: dict[str, bytes], compact: bytes) -> dict[str, bytes]:
    """`fields` as the archive keeps them: no checkpoints, and no history the compact record
    gives back as it is."""
    kept = {name: value for name, value in fields.items() if name != CHECKPOINTS}
    if compact and HISTORY in kept:
        record = decode_record(game_id, kept["r"])
        if history(game_id, record, compact) == kept[HISTORY]:
            del kept[HISTORY]
    return kept


def restored(game_id: str, fields: dict[str, bytes], compact: bytes) -> dict[str, bytes]:
    """The hash of an archived game again: its kept `fields` and, if left out, its history."""
    if HISTORY in fields or not compact:
        return fields
    rebuilt = history(game_id, decode_record(game_id, fields["r"]), compact)
    if rebuilt is None:
        raise CompactError(f"game {game_id}: its history does not come back from its record")
    return {**fields, HISTORY: rebuilt}


def history(game_id: str, record: Record, compact: bytes) -> bytes | None:
    """The folded history (records.fold, without labels) the compact record gives back, None
    if it cannot (labels that are not the engine's must be kept)."""
    document = unpack(compact, game_id)
    entries = [
        HistoryRecord(
            step.version,
            step.seat,
            step.move,
            "",
            step.forced,
            step.event or "",
            step.acted_by or "",
            None
            if step.takeback is None
            else TakebackNote(
                step.takeback.step,
                step.takeback.to_version,
                step.takeback.asked_by,
                list(step.takeback.agreed_by),
            ),
        )
        for step in document.steps
    ]
    game = game_for(record.kind, record.rules)
    if not replayable(game, record, entries):
        return None
    steps = replayed_steps(game, record, entries)
    if steps is None or len(steps) != len(entries):
        return None
    labelled = [
        HistoryRecord(e.version, e.seat, e.move, s.label, e.forced, e.event, e.acted_by, e.takeback)
        for e, s in zip(entries, steps, strict=True)
    ]
    return fold(labelled, labelled=False)
