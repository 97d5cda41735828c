"""The shared random-playout suite for 2-5 players, with Treelings' own invariants."""

from __future__ import annotations

from typing import Any

import pytest

from service.games.treelings import GAME
from service.games.treelings.cards import CARDS, COLOURS, FESTIVAL, GUILD_CARDS
from service.games.treelings.state import State
from tests.conformance import run


def invariant(state: State) -> None:
    held = [0] * len(COLOURS)
    for card in state.pile:
        if card != FESTIVAL:
            held[card] += 1
    for colour, n in enumerate(state.market):
        held[colour] += n
    for tree in [t for trees in state.districts for t in trees] + state.to_place:
        assert tree.height >= 1
        held[tree.colour] += tree.height
    assert held == [c.count for c in CARDS.colours], "guild cards are conserved"
    assert sum(held) == GUILD_CARDS
    festival_in_pile = state.pile.count(FESTIVAL)
    assert festival_in_pile == (0 if state.festival_revealed else 1)
    if festival_in_pile:
        assert state.pile.index(FESTIVAL) == CARDS.festival_depth, "TG-1"
    for trees in state.districts:
        colours = [t.colour for t in trees]
        assert trees and len(colours) == len(set(colours)), "one tree per colour, never empty"
    if state.to_place:
        own = {t.colour for t in state.districts[state.seat]}
        assert all(t.colour not in own for t in state.to_place)
    elif not state.over:
        assert sum(state.market) == CARDS.market_size or not any(
            c != FESTIVAL for c in state.pile
        ), "the market is full at the start of a take unless the pile ran out (TG-3)"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_conformance(players: int) -> None:
    run(GAME, [players], [f"seed-{i}" for i in range(25)], invariant=invariant)


@pytest.mark.parametrize("start_seat", [1, 2])
def test_conformance_other_start_seat(start_seat: int) -> None:
    options: dict[str, Any] = {"startSeat": start_seat}
    run(GAME, [3, 5], [f"start-{i}" for i in range(8)], options, invariant)
