"""Landscape points: avenues per gardener (AV-8) and projects (AV-9)."""

from __future__ import annotations

from operator import ge

from service.engine import Cell, ScoreEntry, ScoreItem, Scores, Term
from service.games.avenue.cards import (
    ANIMALS,
    CARDS,
    CELL_NAMES,
    CELLS,
    FACILITIES,
    PROJECTS,
    SIZE,
    TILE_ANIMAL,
    TREES,
    WILD,
    project_text,
)
from service.games.avenue.rules import EMPTY, LINES, placed_gardeners
from service.games.avenue.state import Phase, State
from service.games.avenue.texts import TEXTS

# Per card: the tree it counts for in an avenue, the wild card on a slot of its own after the
# five types, and how much it counts (AV-8).
RANK_TREE: tuple[int, ...] = tuple(len(TREES) if c.tree == WILD else c.tree for c in CARDS)
RANK_WEIGHT: tuple[int, ...] = tuple(2 if c.symbolic else 1 for c in CARDS)


def avenue_rank(cards: list[int]) -> tuple[int, int]:
    """(best count, its tree) over one row or column: a symbolic card counts 2, the wild card
    counts 1 for every type (AV-8). The first type wins a tie for the detail text."""
    counts = [0] * (len(TREES) + 1)
    for card in cards:
        counts[RANK_TREE[card]] += RANK_WEIGHT[card]
    wild = counts.pop()  # the same for every type: it never changes which type is best
    best = max(counts)
    return best + wild, counts.index(best)


def avenue_points(best: int, tiles: int) -> int:
    return best * (tiles + 1) if best >= 3 else 0


# Per cell: its row and its column, as (kind, 1-based number, cells) (AV-8).
AVENUES: tuple[tuple[tuple[str, int, tuple[int, ...]], ...], ...] = tuple(
    (
        ("row", r + 1, tuple(range(r * SIZE, r * SIZE + SIZE))),
        ("column", c + 1, tuple(range(c, CELLS, SIZE))),
    )
    for r, c in (divmod(cell, SIZE) for cell in range(CELLS))
)


def avenue_items(state: State, seat: int) -> list[ScoreItem]:
    park = state.park
    items = []
    for cell in state.gardeners[seat]:
        if cell == EMPTY:
            continue
        tiles = state.tiles.count(cell)
        r, c = divmod(cell, SIZE)
        for kind, number, cells in AVENUES[cell]:
            best, tree = avenue_rank([park[x] for x in cells if park[x] != EMPTY])
            items.append(
                ScoreItem(
                    source="avenue",
                    points=avenue_points(best, tiles),
                    detail=TEXTS.english(
                        "score.avenue",
                        cell=CELL_NAMES[cell],
                        line=kind,
                        number=number,
                        count=best,
                        tree=TREES[tree],
                        tiles=tiles,
                    ),
                    id=TREES[tree],
                    seat=seat,
                    cells=[Cell(row=r, col=c)],
                    terms=[
                        Term(name=kind, value=number),
                        Term(name="count", value=best),
                        Term(name="tiles", value=tiles),
                    ],
                )
            )
    return items


def facility_counts(state: State, cell: int) -> list[int]:
    """Facilities on the 11 cards of the gardener's row and column; a card showing two
    facilities counts for both (AV-9)."""
    park = state.park
    counts = [0] * len(FACILITIES)
    for x in LINES[cell]:
        if park[x] != EMPTY:
            for f in CARDS[park[x]].facilities:
                counts[f] += 1
    return counts


def animal_counts(state: State, cell: int) -> list[int]:
    counts = [0] * len(ANIMALS)
    for t, c in enumerate(state.tiles):
        if c == cell:
            counts[TILE_ANIMAL[t]] += 1
    return counts


# Per project: how many of each animal, then of each facility, it needs (AV-9).
NEEDS: tuple[tuple[int, ...], ...] = tuple(p.animals + p.facilities for p in PROJECTS)


def objects_of(state: State, cell: int) -> list[int]:
    """What the gardener on `cell` offers a project, in the order of NEEDS."""
    return animal_counts(state, cell) + facility_counts(state, cell)


def projects_met(state: State, seat: int) -> list[int]:
    """Per project card of `seat`: the first gardener cell that meets every object of it,
    or -1."""
    offers = [(cell, objects_of(state, cell)) for cell in placed_gardeners(state, seat)]
    return [
        next((cell for cell, have in offers if all(map(ge, have, NEEDS[project]))), EMPTY)
        for project in state.projects[seat]
    ]


def project_met_by(state: State, seat: int, project: int) -> int:
    """The first gardener cell of `seat` that meets every object of `project`, or -1."""
    for cell in placed_gardeners(state, seat):
        if all(map(ge, objects_of(state, cell), NEEDS[project])):
            return cell
    return EMPTY


def project_items(state: State, seat: int) -> list[ScoreItem]:
    items = []
    for project, cell in zip(state.projects[seat], projects_met(state, seat), strict=True):
        met = cell != EMPTY
        needs = project_text(project)
        detail = (
            TEXTS.english("score.projectMet", project=project, needs=needs, cell=CELL_NAMES[cell])
            if met
            else TEXTS.english("score.projectNotMet", project=project, needs=needs)
        )
        items.append(
            ScoreItem(
                source="project",
                points=PROJECTS[project].points if met else 0,
                detail=detail,
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
