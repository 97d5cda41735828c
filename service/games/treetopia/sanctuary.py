"""Sanctuary geometry and the points a tree scores when it is planted (RULINGS TT-5..TT-7)."""

from __future__ import annotations

from service.games.treetopia.cards import CARDS, SYMBIOSES
from service.games.treetopia.state import COLUMNS, Planted, State, sanctuary_rows

STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def first_cell(players: int) -> tuple[int, int]:
    """The centre of the frame: with a floating bounding box the first tree's place is free
    (TT-5), so every choice is the same sanctuary up to a shift."""
    return sanctuary_rows(players) - 1, COLUMNS - 1


def cells(players: int) -> int:
    return COLUMNS * sanctuary_rows(players)


def is_full(state: State) -> bool:
    return len(state.sanctuary) == cells(state.players)


def grid(state: State) -> dict[tuple[int, int], Planted]:
    return {(p.row, p.col): p for p in state.sanctuary}


def legal_cells(state: State) -> list[tuple[int, int]]:
    """Empty cells next to a planted tree that keep the bounding box within 5 by H (TT-5)."""
    if not state.sanctuary:
        return [first_cell(state.players)]
    taken = {(p.row, p.col) for p in state.sanctuary}
    rows = [r for r, _ in taken]
    cols = [c for _, c in taken]
    height = sanctuary_rows(state.players)
    # The rows and columns a new tree may take with the box still at most `height` by 5.
    first_row, last_row = max(rows) - height + 1, min(rows) + height - 1
    first_col, last_col = max(cols) - COLUMNS + 1, min(cols) + COLUMNS - 1
    next_to = {(row + dr, col + dc) for row, col in taken for dr, dc in STEPS}
    return sorted(
        (row, col)
        for row, col in next_to - taken
        if first_row <= row <= last_row and first_col <= col <= last_col
    )


def group_of(taken: dict[tuple[int, int], Planted], start: tuple[int, int]) -> list[Planted]:
    """The orthogonally connected same-type group holding the tree at `start`."""
    kind = CARDS[taken[start].card].type
    seen = [start]
    todo = [start]
    while todo:
        row, col = todo.pop()
        for dr, dc in STEPS:
            near = (row + dr, col + dc)
            tree = taken.get(near)
            if tree is not None and near not in seen and CARDS[tree.card].type == kind:
                seen.append(near)
                todo.append(near)
    return [taken[cell] for cell in seen]


def plant(state: State, seat: int, card: int, row: int, col: int) -> Planted:
    """Put `card` in the sanctuary and score it: card hope, group bonus, symbiosis bonus."""
    tree = Planted(card, seat, row, col, CARDS[card].hope, 0, 0)
    state.sanctuary.append(tree)
    taken = grid(state)
    size = len(group_of(taken, (row, col)))
    # TT-6: a group of up to 4 pays 1 per other tree in it; a merge into 5+ pays nothing.
    tree.group = size - 1 if size <= 4 else 0
    pair = SYMBIOSES[state.symbiosis]
    kind = CARDS[card].type
    if kind in pair:
        partner = pair[1] if kind == pair[0] else pair[0]
        for dr, dc in STEPS:
            near = taken.get((row + dr, col + dc))
            if near is not None and CARDS[near.card].type == partner:
                tree.symbiosis += 1  # TT-7: one per adjacent partner
    return tree


def completes_four(state: State, tree: Planted) -> bool:
    return len(group_of(grid(state), (tree.row, tree.col))) == 4
