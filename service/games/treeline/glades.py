"""Glade scoring (RULINGS TL-13, TL-14): one function per glade, points per seat.

Counted tokens are the unstationed ones on Forest cards, except for the castle glade. A "most"
glade needs at least one counted item, and every tied seat scores it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from service.games.treeline.cards import GLADE_IDS, GLADES
from service.games.treeline.state import (
    Glade,
    State,
    diagonals,
    grid_of,
    is_energized,
    is_town,
    line_cells,
    lines_of,
    neighbours,
    owner,
    rc,
    surrounding,
)

Scorer = Callable[[State, int], list[int]]


def is_active(state: State, glade: Glade) -> bool:
    """Forest side up with no token on it (TL-14)."""
    return state.forest[glade.cell] and not state.tokens[glade.cell]


def _tokens(state: State, cells: Sequence[int], energized_only: bool = False) -> list[int]:
    counts = [0] * state.players
    for cell in cells:
        for tok in state.tokens[cell]:
            if is_energized(tok) or not energized_only:
                counts[owner(tok)] += 1
    return counts


def _most(counts: list[int], points: int) -> list[int]:
    best = max(counts)
    return [points if best > 0 and count == best else 0 for count in counts]


def _pairs(counts: list[int], points: int) -> list[int]:
    return [points * (count // 2) for count in counts]


def _all_cells(state: State) -> list[int]:
    return list(range(len(state.land)))


def next_to(state: State, cell: int) -> list[int]:
    return _tokens(state, list(neighbours(state, cell)))


def diagonal(state: State, cell: int) -> list[int]:
    return _tokens(state, list(diagonals(state, cell)))


def most_energized_around(state: State, cell: int) -> list[int]:
    return _most(_tokens(state, surrounding(state, cell), energized_only=True), 4)


def pairs_around(state: State, cell: int) -> list[int]:
    return _pairs(_tokens(state, surrounding(state, cell)), 1)


def pairs_in_row(state: State, cell: int) -> list[int]:
    return _pairs(_tokens(state, line_cells(state, lines_of(state, cell)[1])), 2)


def pairs_in_column(state: State, cell: int) -> list[int]:
    return _pairs(_tokens(state, line_cells(state, lines_of(state, cell)[0])), 2)


def pairs_on_edge(state: State, cell: int) -> list[int]:
    return _pairs(_tokens(state, grid_of(state).edge_cells), 2)


def largest_group(state: State, cell: int) -> list[int]:
    next_to = grid_of(state).neighbours
    sizes = [0] * state.players
    for seat in range(state.players):
        mine = [any(owner(t) == seat for t in toks) for toks in state.tokens]
        seen = [False] * len(mine)
        for start, own in enumerate(mine):
            if not own or seen[start]:
                continue
            seen[start] = True
            size, frontier = 1, [start]
            while frontier:
                for n in next_to[frontier.pop()]:
                    if mine[n] and not seen[n]:
                        seen[n] = True
                        size += 1
                        frontier.append(n)
            sizes[seat] = max(sizes[seat], size)
    return _most(sizes, 4)


def _castles_next_to(state: State, cell: int) -> list[int]:
    """Lines whose castle is next to `cell`: a castle is next to its line's first cell (TL-2)."""
    row, col = rc(state, cell)
    column, row_line = lines_of(state, cell)
    return ([column] if row == 0 else []) + ([row_line] if col == 0 else [])


def lonely(state: State, cell: int) -> list[int]:
    """Per token on a card whose neighbouring Forest cards and castles hold no token (TL-14)."""
    points = [0] * state.players
    for card in _all_cells(state):
        if not state.tokens[card]:
            continue
        if any(state.tokens[n] for n in neighbours(state, card)):
            continue
        if any(state.castles[line].stationed for line in _castles_next_to(state, card)):
            continue
        for tok in state.tokens[card]:
            points[owner(tok)] += 1
    return points


def stationed_energized(state: State, cell: int) -> list[int]:
    points = [0] * state.players
    for castle in state.castles:
        for tok in castle.stationed:
            if is_energized(tok):
                points[owner(tok)] += 2
    return points


def most_energized_inner(state: State, cell: int) -> list[int]:
    return _most(_tokens(state, grid_of(state).inner_cells, energized_only=True), 4)


def energized_by_town(state: State, cell: int) -> list[int]:
    """Each Energized token counts once, however many Town cards it surrounds (TL-14)."""
    near = sorted(
        {n for town in _all_cells(state) if is_town(state, town) for n in surrounding(state, town)}
    )
    return [2 * count for count in _tokens(state, near, energized_only=True)]


SCORERS: dict[str, Scorer] = {
    "nextTo": next_to,
    "diagonal": diagonal,
    "mostEnergizedAround": most_energized_around,
    "pairsAround": pairs_around,
    "pairsInRow": pairs_in_row,
    "pairsInColumn": pairs_in_column,
    "pairsOnEdge": pairs_on_edge,
    "largestGroup": largest_group,
    "lonely": lonely,
    "stationedEnergized": stationed_energized,
    "mostEnergizedInner": most_energized_inner,
    "energizedByTown": energized_by_town,
}
assert tuple(SCORERS) == GLADE_IDS


def glade_points(state: State, glade: Glade) -> list[int]:
    """Points per seat from one glade: zero unless it is active."""
    if not is_active(state, glade):
        return [0] * state.players
    return SCORERS[GLADES[glade.kind].id](state, glade.cell)
