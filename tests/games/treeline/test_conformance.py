"""The shared random-playout conformance suite over Treeline, every player count and mode."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from service.games.treeline import GAME
from service.games.treeline.cards import TOKENS_PER_SEAT
from service.games.treeline.state import Phase, State, is_town, owner
from tests import conformance

MAX_STATE_BYTES = 4096


def invariant(state: State) -> None:
    """Tokens are conserved, cards never overfill, only Forest cards hold tokens, the record
    stays small, and a glade is counted as Town while it is Town side up (TL-10)."""
    for seat in range(state.players):
        on_cards = sum(1 for toks in state.tokens for t in toks if owner(t) == seat)
        stationed = sum(1 for c in state.castles for t in c.stationed if owner(t) == seat)
        assert state.supply[seat] >= 0
        assert state.supply[seat] + on_cards + stationed == TOKENS_PER_SEAT
    for cell, toks in enumerate(state.tokens):
        assert len(toks) <= state.land[cell]
        assert not toks or not is_town(state, cell)
        assert len({owner(t) for t in toks}) <= 1, "a card only ever holds one seat's tokens"
    for castle in state.castles:
        assert castle.owner >= 0 or not castle.stationed
    assert len(msgspec.msgpack.encode(state)) <= MAX_STATE_BYTES
    if state.phase == Phase.OVER:
        assert sum(not f for f in state.forest) <= 4 or state.end == 2


MODES: list[dict[str, Any]] = [
    {},
    {"strategicStart": True},
    {"fullGame": True},
    {"fullGame": True, "strategicStart": True, "startSeat": 1},
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", MODES, ids=["learning", "strategic", "full", "full-strategic"])
def test_conformance(players: int, options: dict[str, Any]) -> None:
    conformance.run(GAME, [players], ["c1", "c2"], options, invariant)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_more_seeds(players: int) -> None:
    seeds = [f"extra{i}" for i in range(6)]
    options = {"fullGame": True, "strategicStart": players == 3}
    conformance.run(GAME, [players], seeds, options, invariant, try_every_move=False)
