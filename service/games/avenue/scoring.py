"""Landscape points: avenues per gardener (AV-8) and projects (AV-9)."""

from __future__ import annotations

from service.engine import Cell, ScoreEntry, ScoreItem, Scores, Term
from service.games.avenue.cards import (
    ANIMALS,
    CARDS,
    FACILITIES,
    PROJECTS,
    SIZE,
    TILE_ANIMAL,
    TREES,
    WILD,
    cell_name,
    project_text,
)
from service.games.avenue.rules import EMPTY, line_cells, tiles_on
from service.games.avenue.state import Phase, State


def avenue_rank(cards: list[int]) -> tuple[int, int]:
    """(best count, its tree) over one row or column: a symbolic card counts 2, the wild card
    counts 1 for every type (AV-8). The first type wins a tie for the detail text."""
    counts = [0] * len(TREES)
    for card in cards:
        c = CARDS[card]
        if c.tree == WILD:
            counts = [n + 1 for n in counts]
        else:
            counts[c.tree] += 2 if c.symbolic else 1
    best = max(counts)
    return best, counts.index(best)


def avenue_points(best: int, tiles: int) -> int:
    return best * (tiles + 1) if best >= 3 else 0


def avenue_items(state: State, seat: int) -> list[ScoreItem]:
    items = []
    for cell in state.gardeners[seat]:
        if cell == EMPTY:
            continue
        tiles = len(tiles_on(state, cell))
        r, c = divmod(cell, SIZE)
        lines = (
            ("row", r + 1, [r * SIZE + x for x in range(SIZE)]),
            ("column", c + 1, [y * SIZE + c for y in range(SIZE)]),
        )
        for kind, number, cells in lines:
            cards = [state.park[x] for x in cells if state.park[x] != EMPTY]
            best, tree = avenue_rank(cards)
            points = avenue_points(best, tiles)
            detail = (
                f"gardener on {cell_name(cell)}, {kind} {number}: "
                f"{best} {TREES[tree]} x ({tiles} tiles + 1)"
            )
            terms = {kind: number, "count": best, "tiles": tiles}
            items.append(
                ScoreItem(
                    source="avenue",
                    points=points,
                    detail=detail,
                    id=TREES[tree],
                    seat=seat,
                    cells=[Cell(row=r, col=c)],
                    terms=[Term(name=name, value=value) for name, value in terms.items()],
                )
            )
    return items


def facility_counts(state: State, cell: int) -> list[int]:
    """Facilities on the 11 cards of the gardener's row and column; a card showing two
    facilities counts for both (AV-9)."""
    counts = [0] * len(FACILITIES)
    for x in line_cells(cell):
        if state.park[x] != EMPTY:
            for f in CARDS[state.park[x]].facilities:
                counts[f] += 1
    return counts


def animal_counts(state: State, cell: int) -> list[int]:
    counts = [0] * len(ANIMALS)
    for t in tiles_on(state, cell):
        counts[TILE_ANIMAL[t]] += 1
    return counts


def project_met_by(state: State, seat: int, project: int) -> int:
    """The first gardener cell of `seat` that meets every object of `project`, or -1."""
    p = PROJECTS[project]
    for cell in state.gardeners[seat]:
        if cell == EMPTY:
            continue
        animals = animal_counts(state, cell)
        facilities = facility_counts(state, cell)
        if all(have >= need for have, need in zip(animals, p.animals, strict=True)) and all(
            have >= need for have, need in zip(facilities, p.facilities, strict=True)
        ):
            return cell
    return EMPTY


def project_items(state: State, seat: int) -> list[ScoreItem]:
    items = []
    for project in state.projects[seat]:
        cell = project_met_by(state, seat, project)
        met = cell != EMPTY
        by = f"met by the gardener on {cell_name(cell)}" if met else "not met"
        items.append(
            ScoreItem(
                source="project",
                points=PROJECTS[project].points if met else 0,
                detail=f"project {project} ({project_text(project)}): {by}",
                id=str(project),
                seat=seat,
                cells=[Cell(row=cell // SIZE, col=cell % SIZE)] if met else [],
            )
        )
    return items


def scores(state: State) -> Scores:
    """Live avenue points during the game; project cards are secret until the end (AV-9), so
    they join the breakdown only once the game is over."""
    final = state.phase == Phase.OVER
    entries = []
    for seat in range(state.players):
        items = avenue_items(state, seat)
        if final:
            items += project_items(state, seat)
        entries.append(
            ScoreEntry(seat=seat, points=sum(i.points for i in items), breakdown=items, tiebreak=[])
        )
    winners: list[int] = []
    if final:
        top = max(e.points for e in entries)
        winners = [e.seat for e in entries if e.points == top]  # shared victory (AV-10)
    return Scores(final=final, winners=winners, entries=entries)
