"""Records saved by earlier releases still decode and play on (docs/architecture.md, "Record format").

Each fixture is a record written by a release (its FORMAT in the name); when a State or Record
gains a field, the fixtures must still decode, and records of a newer release must too. Add a fixture whenever FORMAT or a game's State changes shape. The same holds for folded
histories (records.FoldedHistory), for history entries (records.HistoryRecord, `*.history`)
and for the labels the engine gives back for them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from service.core.game.folding import replayed_steps
from service.engine import play
from service.engine.play import decode_state
from service.games import games
from service.store.records import (
    ACTED_BY_TENANT,
    FORMAT,
    HistoryRecord,
    Record,
    fold,
    history_decoder,
    label_digest,
    record_decoder,
    record_encoder,
    unfold,
)

FIXTURES_DIR = Path(__file__).parent / "fixtures"
FIXTURES = sorted(FIXTURES_DIR.glob("*.msgpack"))


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_saved_record_decodes_and_the_game_goes_on(path: Path) -> None:
    record = record_decoder.decode(path.read_bytes())
    game = games()[record.kind]
    state = decode_state(game, record.state)
    for viewer in [None, *range(record.players)]:
        msgspec.json.encode(game.view(state, viewer))
    seat = game.to_act(state)[0]
    move = game.legal_moves(state, seat)[0]
    play(game, state, seat, msgspec.to_builtins(move))


FOLDED = sorted(FIXTURES_DIR.glob("*.folded"))


@pytest.mark.parametrize("path", FOLDED, ids=[p.stem for p in FOLDED])
def test_saved_folded_history_decodes_and_replays_to_its_labels(path: Path) -> None:
    """A finished game's folded history (service/core/game/folding.py): its labels, left out, come
    back from the engine exactly (the digest kept when it was folded)."""
    entries, digest = unfold(path.read_bytes())
    kind, players, seed = "TREELINGS", 2, "folded-fixture"  # as the fixture was made
    record = Record(FORMAT, kind, players, len(entries), True, seed, [], b"", 0.0, 0.0, {}, {})
    steps = replayed_steps(games()[kind], record, entries)
    assert steps is not None and len(steps) == len(entries)
    assert digest == label_digest([step.label for step in steps])


class _EntryBefore31(msgspec.Struct, array_like=True):
    """HistoryRecord as releases before `acted_by` wrote and read it (no `acted_by`)."""

    version: int
    seat: int
    move: Any
    label: str
    forced: bool = False
    event: str = ""


def test_history_entries_of_earlier_releases_decode_as_the_seats_own() -> None:
    """Entries saved before `acted_by` (formats 1 and 2: the fixture is their HistoryRecord's)
    read as decided by the seat itself; an entry written now still reads in the earlier shape, so
    a rolled-back replica reads the list too."""
    saved = (FIXTURES_DIR / "entries-format2.history").read_bytes()
    entries = msgspec.msgpack.decode(saved, type=list[HistoryRecord])
    assert [(e.version, e.event, e.acted_by) for e in entries] == [(1, "", ""), (2, "RESIGNED", "")]
    for folded in FOLDED:
        assert {e.acted_by for e in unfold(folded.read_bytes())[0]} == {""}
    now = HistoryRecord(3, 0, {"type": "x"}, "label", acted_by=ACTED_BY_TENANT)
    assert history_decoder.decode(msgspec.msgpack.encode(now)) == now
    earlier = msgspec.msgpack.decode(msgspec.msgpack.encode(now), type=_EntryBefore31)
    assert (earlier.version, earlier.seat, earlier.label) == (3, 0, "label")
    kept = unfold(fold([now, msgspec.structs.replace(now, version=4, acted_by="")], True))[0]
    assert [e.acted_by for e in kept] == [ACTED_BY_TENANT, ""]


def test_records_of_earlier_releases_read_as_created_under_the_first_rules() -> None:
    """Format 1 had no `rules`: those games were created before the rules were versioned,
    under version 1 of each game's rules (docs/reliability.md, "Rolling upgrades")."""
    earlier = [record_decoder.decode(p.read_bytes()) for p in FIXTURES if "-format1" in p.stem]
    assert earlier and all(r.format == 1 and r.rules == 1 for r in earlier)


def test_a_record_names_its_format_and_the_rules_it_was_created_under() -> None:
    saved = Path(__file__).parent / "fixtures" / "treelings-format2-rules.msgpack"
    record = record_decoder.decode(saved.read_bytes())
    assert (record.format, record.rules) == (2, 1)
    assert record.rules == games()[record.kind].rules_version


def test_a_record_of_a_newer_release_reads_without_the_fields_it_added() -> None:
    """Readers accept additive fields: a newer release appends its fields after this one's."""
    saved = (Path(__file__).parent / "fixtures" / "treelings-format2-rules.msgpack").read_bytes()
    fields = msgspec.msgpack.decode(record_encoder.encode(record_decoder.decode(saved)))
    newer = record_decoder.decode(
        msgspec.msgpack.encode([FORMAT + 1, *fields[1:], "a newer field", [1]])
    )
    assert msgspec.structs.replace(newer, format=2) == record_decoder.decode(saved)


def test_a_record_from_before_spectator_delays_reads_as_live_for_spectators() -> None:
    """Format 3 records end with `rules`: they decode with `spectator_delay` 0."""
    saved = Path(__file__).parent / "fixtures" / "treelings-format3.msgpack"
    fields = msgspec.msgpack.decode(saved.read_bytes())
    record = record_decoder.decode(saved.read_bytes())
    assert (record.format, len(fields)) == (3, len(Record.__struct_fields__) - 4)
    assert record.spectator_delay == 0


def test_records_and_entries_of_format_4_keep_their_takebacks() -> None:
    """Format 4 added takebacks and delayed spectators: the policy, the pending request and the clock banks
    of a record; the takeback note of a history entry, also through a fold. Earlier records
    read as NONE with none pending."""
    record = record_decoder.decode(
        (FIXTURES_DIR / "treelings-format4-takebacks.msgpack").read_bytes()
    )
    assert (record.format, record.takebacks, record.spectator_delay) == (4, "WITH_CONSENT", 2)
    assert record.takeback is not None and record.takeback.seat == 0
    assert record.banks and record.banks[-1].remaining == [600.0, 600.0]
    earlier = [record_decoder.decode(p.read_bytes()) for p in FIXTURES if "-format4" not in p.stem]
    assert {(r.takebacks, r.takeback, len(r.banks)) for r in earlier} == {("NONE", None, 0)}
    saved = (FIXTURES_DIR / "entries-format4.history").read_bytes()
    entries = msgspec.msgpack.decode(saved, type=list[HistoryRecord])
    note = entries[1].takeback
    assert entries[0].takeback is None and note is not None
    assert (note.step, note.to_version, note.asked_by) == ("TAKEN", 0, 0)
    assert unfold(fold(entries, True))[0] == entries
