"""Records saved by earlier releases still decode and play on (docs/architecture.md, "Records and keys").

Each fixture is a record written by a release; when a State or Record gains a field, the
fixtures must still decode. Add a fixture whenever FORMAT or a game's State changes shape. The same holds for folded
histories (records.FoldedHistory) and for the labels the engine gives back for them.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from service.core.folding import replayed_steps
from service.engine import play
from service.engine.play import decode_state
from service.games import games
from service.store.records import FORMAT, Record, label_digest, record_decoder, unfold

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("*.msgpack"))


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


FOLDED = sorted((Path(__file__).parent / "fixtures").glob("*.folded"))


@pytest.mark.parametrize("path", FOLDED, ids=[p.stem for p in FOLDED])
def test_saved_folded_history_decodes_and_replays_to_its_labels(path: Path) -> None:
    """A finished game's folded history (service/core/folding.py): its labels, left out, come
    back from the engine exactly (the digest kept when it was folded)."""
    entries, digest = unfold(path.read_bytes())
    kind, players, seed = "TREELINGS", 2, "folded-fixture"  # as the fixture was made
    record = Record(FORMAT, kind, players, len(entries), True, seed, [], b"", 0.0, 0.0, {}, {})
    steps = replayed_steps(games()[kind], record, entries)
    assert steps is not None and len(steps) == len(entries)
    assert digest == label_digest([step.label for step in steps])
