"""Setup and create options (RULINGS TL-1, TL-2, TL-12, TL-13, ALL-1)."""

from __future__ import annotations

from collections import Counter

import pytest

from service.engine import BadSetup, Rng, start
from service.games.treeline import GAME
from service.games.treeline.cards import CASTLES, GLADES
from service.games.treeline.setup import deal_land
from service.games.treeline.state import Phase, State, cell_at, rc

from .board import build, moves, run


@pytest.mark.parametrize(
    ("players", "rows", "cols", "deck"), [(2, 6, 7, 51), (3, 7, 7, 51), (4, 8, 8, 66)]
)
def test_tl1_grid_deck_and_starting_tiles(players: int, rows: int, cols: int, deck: int) -> None:
    state: State = start(GAME, players, {}, "deal").state
    assert (state.rows, state.cols) == (rows, cols)
    dealt = deal_land(players, Rng.from_seed("deal"))
    assert len(dealt) == deck
    assert Counter(dealt) == {v: deck // 3 for v in (1, 2, 3)}
    assert [v for v in state.land if v] == dealt[: rows * cols - 2]  # extras go to the box
    assert [cell for cell, v in enumerate(state.land) if v == 0] == [0, rows * cols - 1]
    assert state.forest == [v == 0 for v in state.land]
    assert all(toks == [] for toks in state.tokens)
    assert state.supply == [11] * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tl2_one_castle_per_line_with_letter_and_data_points(players: int) -> None:
    state: State = start(GAME, players, {}, "castles").state
    assert len(state.castles) == state.rows + state.cols
    tiles = [c.tile for c in state.castles]
    assert len(set(tiles)) == len(tiles)
    view = GAME.view(state, None)
    for castle, shown in zip(state.castles, view.castles, strict=True):
        assert (shown.letter, shown.points) == (
            CASTLES[castle.tile].letter,
            CASTLES[castle.tile].points,
        )
        assert shown.owner is None and shown.stationed == []
    assert [c.line for c in view.castles] == ["column"] * state.cols + ["row"] * state.rows


def test_tl2_castle_points_come_from_the_data_file() -> None:
    catalog = GAME.catalog()
    assert [c["letter"] for c in catalog["castles"]] == [chr(65 + i) for i in range(16)]
    assert catalog["castles"][0]["points"] == CASTLES[0].points
    assert len(catalog["glades"]) == 12


def test_tl10_four_players_form_teams_of_seats_0_2_and_1_3() -> None:
    view = GAME.view(start(GAME, 4, {}, "teams").state, 1)
    assert [s.team for s in view.seats] == [[0, 2], [1, 3], [0, 2], [1, 3]]
    view3 = GAME.view(start(GAME, 3, {}, "teams").state, 1)
    assert [s.team for s in view3.seats] == [[0], [1], [2]]


def test_all1_start_seat_option_names_the_first_active_seat() -> None:
    state: State = start(GAME, 3, {"startSeat": 2}, "s").state
    assert GAME.to_act(state) == [2] and state.active == 2
    with pytest.raises(BadSetup):
        start(GAME, 3, {"startSeat": 3}, "s")


def test_tl12_strategic_start_goes_in_reverse_turn_order_and_fills_from_supply() -> None:
    state: State = start(GAME, 3, {"strategicStart": True, "startSeat": 1}, "st").state
    order = []
    while state.phase == Phase.STRATEGIC:
        seat = state.actor
        order.append(seat)
        first = moves(state)[0]
        cell = cell_at(state, first["row"], first["col"])
        state, _ = run(state, (seat, first))
        assert state.forest[cell] and state.tokens[cell] == [seat * 2] * state.land[cell]
        assert state.supply[seat] == 11 - state.land[cell]
    assert order == [0, 2, 1]
    assert state.phase == Phase.REFOREST and state.active == 1 and state.turn == 1


def test_tl12_strategic_start_never_offers_a_card_that_would_isolate() -> None:
    state = build(
        """
        S  T1 F1 F1
        T1 T1 T1 T1
        T1 T1 T1 S
        """,
        start_turn=False,
    )
    state.phase, state.strategic_queue, state.actor = Phase.STRATEGIC, [1, 0], 1
    offered = [(m["row"], m["col"]) for m in moves(state)]
    # (1,1) is the only Town neighbour of (0,1), (1,2) the only one of (1,3)
    assert offered == [(0, 1), (1, 0), (1, 3), (2, 0), (2, 1), (2, 2)]
    state, labels = run(state, (1, {"type": "strategicFlip", "row": 2, "col": 1}))
    assert labels == ["strategic start: flip (2,1) and fill it from supply"]
    assert state.tokens[cell_at(state, 2, 1)] == [2] and state.supply[1] == 10
    assert state.actor == 0 and state.phase == Phase.STRATEGIC


def test_tl13_full_game_puts_three_hidden_glades_on_value_one_cells() -> None:
    state: State = start(GAME, 4, {"fullGame": True}, "glades").state
    learning: State = start(GAME, 4, {}, "glades").state
    assert state.land == learning.land  # the deal is the learning game's deal for the seed
    assert len(state.glades) == 3
    assert len({g.kind for g in state.glades}) == 3
    assert all(state.land[g.cell] == 1 and not state.forest[g.cell] for g in state.glades)
    for seat in (None, 0, 1, 2, 3):
        shown = [c for c in GAME.view(state, seat).cells if c.kind == "glade"]
        assert [(c.row, c.col) for c in shown] == [rc(state, g.cell) for g in state.glades]
        assert all(c.glade is None and c.spaces == 1 for c in shown)


def test_tl13_glade_cells_option_names_the_cells() -> None:
    learning: State = start(GAME, 2, {}, "named").state
    ones = [rc(learning, cell) for cell, v in enumerate(learning.land) if v == 1][:3]
    options = {"fullGame": True, "gladeCells": [list(rc_) for rc_ in ones]}
    state: State = start(GAME, 2, options, "named").state
    assert [rc(state, g.cell) for g in state.glades] == ones
    assert all(0 <= g.kind < len(GLADES) for g in state.glades)


@pytest.mark.parametrize(
    "cells",
    [[[0, 0], [0, 1], [0, 2]], [[9, 9], [0, 1], [0, 2]], "dup", "two", "three-but-not-ones"],
)
def test_tl13_bad_glade_cells_are_rejected_at_create(cells: object) -> None:
    learning: State = start(GAME, 2, {}, "bad").state
    ones = [list(rc(learning, c)) for c, v in enumerate(learning.land) if v == 1]
    others = [list(rc(learning, c)) for c, v in enumerate(learning.land) if v > 1]
    chosen = {
        "dup": [ones[0], ones[0], ones[1]],
        "two": ones[:2],
        "three-but-not-ones": [ones[0], ones[1], others[0]],
    }.get(cells if isinstance(cells, str) else "", cells)
    with pytest.raises(BadSetup):
        start(GAME, 2, {"fullGame": True, "gladeCells": chosen}, "bad")


def test_tl13_glade_cells_need_full_game() -> None:
    with pytest.raises(BadSetup, match="fullGame"):
        start(GAME, 2, {"gladeCells": [[0, 1], [0, 2], [0, 3]]}, "x")
