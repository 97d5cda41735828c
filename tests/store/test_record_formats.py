"""Records saved by earlier releases still decode and play on (DESIGN.md, "Storage").

Each fixture is a record written by a release; when a State or Record gains a field, the
fixtures must still decode. Add a fixture whenever FORMAT or a game's State changes shape.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from service.engine import games, play
from service.engine.play import decode_state
from service.store.records import record_decoder

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
