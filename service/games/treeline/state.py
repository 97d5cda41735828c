"""The stored state of a Treeline game and the pure grid helpers over it.

Cells are indexed row * cols + col. Lines are numbered columns first (0..cols-1, the castles
above the columns), then rows (cols..cols+rows-1, the castles left of the rows). A token is a
small int: seat * 2 + 1 if Energized else seat * 2.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import IntEnum
from functools import cache
from itertools import compress
from typing import Literal, NamedTuple

import msgspec

from service.engine import Options, Rng


class Phase(IntEnum):
    STRATEGIC = 0
    REFOREST = 1
    DEPLOY_CARD = 2
    DEPLOY_SOURCE = 3
    STATION = 4
    ENERGIZE = 5
    OVER = 6


class End(IntEnum):
    NONE = 0
    FEW_TOWNS = 1
    NO_REFOREST = 2


class TreelineOptions(Options):
    full_game: bool = False
    strategic_start: bool = False
    glade_cells: list[tuple[int, int]] | None = None


class Glade(msgspec.Struct, array_like=True):
    cell: int
    kind: int  # index into cards.GLADES; hidden while the glade is Town side up (TL-13)


class Castle(msgspec.Struct, array_like=True):
    tile: int  # index into cards.CASTLES: priority letter and points
    owner: int = -1
    stationed: list[int] = []  # tokens, same encoding as on cards


class State(msgspec.Struct, kw_only=True):
    players: int
    rows: int
    cols: int
    rng: Rng
    start_seat: int = 0
    full_game: bool = False
    strategic_start: bool = False
    land: list[int]  # spaces per cell: 0 for a starting tile, else 1..3 (glades 1)
    forest: list[bool]  # Forest side up; starting tiles are always True
    tokens: list[list[int]]  # tokens on each cell, at most land[cell] of them
    glades: list[Glade] = []
    castles: list[Castle]  # one per line
    supply: list[int]
    phase: Phase = Phase.REFOREST
    actor: int = 0
    active: int = 0
    turn: int = 0
    strategic_queue: list[int] = []
    open_lines: list[int] = []  # lines with a Town card at the start of this turn (TL-6)
    flipped: list[int] = []  # cells flipped this turn, pair first, then isolated ones
    deployed: list[int] = []  # cards deployed to this turn
    deploy_stage: int = 0  # 0: the active seat deploys, 1: the next seat (TL-5)
    target: int = -1  # the card being filled
    claims: list[int] = []  # restored lines still to resolve, in priority-letter order
    claim_line: int = -1
    station_left: int = 0
    energize_queue: list[int] = []
    end: End = End.NONE


def token(seat: int, energized: bool) -> int:
    return seat * 2 + int(energized)


def owner(tok: int) -> int:
    return tok >> 1


def is_energized(tok: int) -> bool:
    return bool(tok & 1)


def influence(tok: int) -> int:
    return 2 if tok & 1 else 1


def rc(state: State, cell: int) -> tuple[int, int]:
    return divmod(cell, state.cols)


def cell_at(state: State, row: int, col: int) -> int:
    return row * state.cols + col


def on_grid(state: State, row: int, col: int) -> bool:
    return 0 <= row < state.rows and 0 <= col < state.cols


class Grid(NamedTuple):
    """Per-cell and per-line tables of one grid size, so hot paths look up instead of scan."""

    neighbours: tuple[tuple[int, ...], ...]  # orthogonal: up, left, right, down
    diagonals: tuple[tuple[int, ...], ...]
    surrounding: tuple[tuple[int, ...], ...]  # both of the above, sorted
    edge: tuple[bool, ...]
    edge_cells: tuple[int, ...]
    inner_cells: tuple[int, ...]
    lines: tuple[tuple[int, ...], ...]  # the cells of each line, columns first, then rows
    coords: tuple[tuple[int, int], ...]  # (row, col) of each cell
    places: tuple[
        tuple[Literal["column", "row"], int], ...
    ]  # ("column", col) or ("row", row) of each line


def _steps(rows: int, cols: int, cell: int, deltas: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    row, col = divmod(cell, cols)
    return tuple(
        (row + dr) * cols + col + dc
        for dr, dc in deltas
        if 0 <= row + dr < rows and 0 <= col + dc < cols
    )


@cache
def grid(rows: int, cols: int) -> Grid:
    cells = range(rows * cols)
    orthogonal = ((-1, 0), (0, -1), (0, 1), (1, 0))
    diagonal = ((-1, -1), (-1, 1), (1, -1), (1, 1))
    edge = tuple(cell // cols in (0, rows - 1) or cell % cols in (0, cols - 1) for cell in cells)
    return Grid(
        neighbours=tuple(_steps(rows, cols, cell, orthogonal) for cell in cells),
        diagonals=tuple(_steps(rows, cols, cell, diagonal) for cell in cells),
        surrounding=tuple(
            tuple(sorted(_steps(rows, cols, cell, orthogonal + diagonal))) for cell in cells
        ),
        edge=edge,
        edge_cells=tuple(cell for cell in cells if edge[cell]),
        inner_cells=tuple(cell for cell in cells if not edge[cell]),
        lines=tuple(
            [tuple(r * cols + c for r in range(rows)) for c in range(cols)]
            + [tuple(r * cols + c for c in range(cols)) for r in range(rows)]
        ),
        coords=tuple(divmod(cell, cols) for cell in cells),
        places=tuple([("column", c) for c in range(cols)] + [("row", r) for r in range(rows)]),
    )


def grid_of(state: State) -> Grid:
    return grid(state.rows, state.cols)


def neighbours(state: State, cell: int) -> tuple[int, ...]:
    """Orthogonal neighbours ("next to"; diagonal does not count)."""
    return grid(state.rows, state.cols).neighbours[cell]


def diagonals(state: State, cell: int) -> tuple[int, ...]:
    return grid(state.rows, state.cols).diagonals[cell]


def surrounding(state: State, cell: int) -> tuple[int, ...]:
    return grid(state.rows, state.cols).surrounding[cell]


def is_edge(state: State, cell: int) -> bool:
    return grid(state.rows, state.cols).edge[cell]


def is_town(state: State, cell: int) -> bool:
    return not state.forest[cell]


def line_cells(state: State, line: int) -> tuple[int, ...]:
    return grid(state.rows, state.cols).lines[line]


def lines_of(state: State, cell: int) -> tuple[int, int]:
    row, col = rc(state, cell)
    return col, state.cols + row


def town_count(state: State) -> int:
    return state.forest.count(False)


def lines_with_town(state: State) -> list[int]:
    """The lines holding a Town card, in line order (one pass over the cells)."""
    cols = state.cols
    town = [False] * (cols + state.rows)
    for cell, up in enumerate(state.forest):
        if not up:
            town[cell % cols] = town[cols + cell // cols] = True
    return [line for line, any_town in enumerate(town) if any_town]


def glade_at(state: State, cell: int) -> Glade | None:
    for glade in state.glades:
        if glade.cell == cell:
            return glade
    return None


def next_seat(state: State, seat: int) -> int:
    return (seat + 1) % state.players


def seats_after(state: State, seat: int) -> list[int]:
    """Every other seat, in turn order starting after `seat`."""
    return [(seat + i) % state.players for i in range(1, state.players)]


def team_of(state: State, seat: int) -> list[int]:
    """The seats whose points add up with `seat`'s (TL-10: 0+2 and 1+3 with four players)."""
    if state.players == 4:
        return [seat % 2, seat % 2 + 2]
    return [seat]


def occupied(state: State) -> Iterator[int]:
    """The cells holding at least one token, in cell order."""
    return compress(range(len(state.tokens)), state.tokens)


def tokens_on_cards(state: State, seat: int) -> list[tuple[int, int]]:
    """(cell, token) for each unstationed token of `seat` on a card, in cell order."""
    return [
        (cell, tok) for cell, toks in enumerate(state.tokens) for tok in toks if owner(tok) == seat
    ]
