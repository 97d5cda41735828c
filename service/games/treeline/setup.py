"""Dealing a new game (RULINGS TL-1, TL-2, TL-12, TL-13)."""

from __future__ import annotations

from service.engine import BadSetup, Rng
from service.games.treeline.cards import CASTLES, DATA, GLADES, TOKENS_PER_SEAT
from service.games.treeline.rules import begin_turn
from service.games.treeline.state import (
    Castle,
    Glade,
    Phase,
    State,
    TreelineOptions,
    cell_at,
    on_grid,
)


def deal_land(players: int, rng: Rng) -> list[int]:
    """The shuffled land deck (TL-1): 22 of each value, 5 of each removed below 4 players."""
    removed = DATA.removed_per_value_below_four_players if players < 4 else 0
    deck = [
        value for value, count in sorted(DATA.land_values.items()) for _ in range(count - removed)
    ]
    rng.shuffle(deck)
    return deck


def setup(players: int, options: TreelineOptions, rng: Rng) -> State:
    rows, cols = DATA.grids[players]
    if options.glade_cells is not None and not options.full_game:
        raise BadSetup("gladeCells needs fullGame")
    deck = deal_land(players, rng)
    cells = rows * cols
    starts = (0, cells - 1)  # top-left and bottom-right starting tiles (TL-1)
    dealt = iter(deck)  # the extras stay in the box
    land = [0 if cell in starts else next(dealt) for cell in range(cells)]
    tiles = list(range(len(CASTLES)))
    rng.shuffle(tiles)
    state = State(
        players=players,
        rows=rows,
        cols=cols,
        rng=rng,
        start_seat=options.start_seat,
        full_game=options.full_game,
        strategic_start=options.strategic_start,
        land=land,
        forest=[value == 0 for value in land],
        tokens=[[] for _ in range(cells)],
        castles=[Castle(tile) for tile in tiles[: cols + rows]],
        supply=[TOKENS_PER_SEAT] * players,
    )
    if options.full_game:
        kinds = rng.sample(list(range(len(GLADES))), 3)
        state.glades = [
            Glade(cell, kind)
            for cell, kind in zip(_glade_cells(state, options), kinds, strict=True)
        ]
    if options.strategic_start:
        # TL-12: reverse turn order, so the start seat flips last.
        state.strategic_queue = [(options.start_seat - i) % players for i in range(1, players + 1)]
        state.phase = Phase.STRATEGIC
        state.actor = state.strategic_queue[0]
    else:
        begin_turn(state, options.start_seat)
    return state


def _glade_cells(state: State, options: TreelineOptions) -> list[int]:
    """Three value-1 Town cells for the glades (TL-13): named by the options, else by the seed."""
    ones = [cell for cell, value in enumerate(state.land) if value == 1]
    if options.glade_cells is None:
        return sorted(state.rng.sample(ones, 3))
    named: list[int] = []
    for row, col in options.glade_cells:
        if not on_grid(state, row, col):
            raise BadSetup(
                f"gladeCells: ({row},{col}) is not on the {state.rows}x{state.cols} grid"
            )
        cell = cell_at(state, row, col)
        if cell not in ones:
            raise BadSetup(f"gladeCells: ({row},{col}) does not hold a value-1 Town card")
        if cell in named:
            raise BadSetup(f"gladeCells: ({row},{col}) is named twice")
        named.append(cell)
    if len(named) != 3:
        raise BadSetup("gladeCells must name exactly three cells")
    return sorted(named)
