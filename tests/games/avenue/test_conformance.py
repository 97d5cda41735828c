"""Random playouts through the shared conformance suite, with the game's invariants."""

from __future__ import annotations

from collections import Counter

from service.games.avenue import GAME
from service.games.avenue.cards import CARDS, CELLS, PROJECTS, TILE_ANIMAL
from service.games.avenue.rules import EMPTY, markers
from service.games.avenue.state import Phase, State
from tests.conformance import run


def invariant(state: State) -> None:
    placed = [c for c in state.park if c != EMPTY]
    in_row = [c for c in state.row if c != EMPTY]
    cards = placed + in_row + state.next_row + state.deck
    assert sorted(cards) == list(range(len(CARDS))), "every area card is somewhere, once"
    projects = [p for hand in state.projects for p in hand] + state.project_deck
    assert sorted(projects) == list(range(len(PROJECTS))), "every project card is somewhere"
    assert len(state.tiles) == len(TILE_ANIMAL)
    assert all(0 <= cell < CELLS for cell in state.tiles)
    gardeners = [c for seat in state.gardeners for c in seat if c != EMPTY]
    assert len(set(gardeners)) == len(gardeners), "one gardener per card"
    assert all(state.park[c] != EMPTY for c in gardeners), "gardeners stand on cards"
    size = markers(state.players)
    assert len(state.order) == size and len(state.next_order) == size
    per_seat = size // state.players
    assert Counter(state.order) == {seat: per_seat for seat in range(state.players)}
    for row in (state.row, state.next_row):
        values = [CARDS[c].value for c in row if c != EMPTY]
        assert values == sorted(values), "rows are sorted by value (AV-4)"
    if state.phase == Phase.OVER:
        assert EMPTY not in state.park and not state.deck


def test_conformance_every_move() -> None:
    run(GAME, [2, 3, 4], [f"every-{i}" for i in range(6)], invariant=invariant)


def test_conformance_random_order() -> None:
    run(
        GAME,
        [2, 3, 4],
        [f"fast-{i}" for i in range(40)],
        options={"randomOrder": True},
        invariant=invariant,
        try_every_move=False,
    )


def test_conformance_clockwise_from_start_seat() -> None:
    run(
        GAME,
        [2, 3, 4],
        [f"start-{i}" for i in range(5)],
        options={"randomOrder": False, "startSeat": 1},
        invariant=invariant,
        try_every_move=False,
    )
