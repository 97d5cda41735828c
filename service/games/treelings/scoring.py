"""Scoring: a tree scores its height if it is at least as tall as both neighbours (TG-8), the
districts forming a ring in seat order (TG-7)."""

from __future__ import annotations

from service.engine import ScoreEntry, ScoreItem, Scores, Term
from service.games.treelings.cards import COLOURS
from service.games.treelings.state import State, Tree
from service.games.treelings.texts import TEXTS


def ring_heights(state: State, seat: int) -> list[int]:
    """The heights of a district's trees, left to right, between the heights of the trees its
    ends face: tree `index` has `index` on its left and `index + 2` on its right.

    TG-7: the end trees of a district face the end trees of seat-1 and seat+1; with two
    players both ends face the other seat. Gap: a missing neighbour (only an empty district
    could cause it, and the deal rules one out) counts as height 0."""
    before = state.districts[(seat - 1) % state.players]
    after = state.districts[(seat + 1) % state.players]
    return [
        before[-1].height if before else 0,
        *[tree.height for tree in state.districts[seat]],
        after[0].height if after else 0,
    ]


def neighbours(state: State, seat: int, index: int) -> tuple[int, int]:
    """The heights of a tree's left and right neighbours (TG-7, see ring_heights)."""
    heights = ring_heights(state, seat)
    return heights[index], heights[index + 2]


def scores(state: State) -> Scores:
    entries = [_entry(state, seat) for seat in range(state.players)]
    winners: list[int] = []
    if state.over:
        best = max((e.points, e.tiebreak) for e in entries)
        winners = [e.seat for e in entries if (e.points, e.tiebreak) == best]
    return Scores(final=state.over, winners=winners, entries=entries)


def _entry(state: State, seat: int) -> ScoreEntry:
    heights = ring_heights(state, seat)
    items = [
        _item(seat, tree, heights[index], heights[index + 2])
        for index, tree in enumerate(state.districts[seat])
    ]
    scoring = [item.points for item in items if item.points]
    return ScoreEntry(
        seat=seat,
        points=sum(scoring),
        breakdown=items,
        tiebreak=[len(scoring)],  # TG-8: more scoring trees, then shared victory
    )


def _item(seat: int, tree: Tree, left: int, right: int) -> ScoreItem:
    colour = COLOURS[tree.colour]
    height = tree.height
    points = height if height >= left and height >= right else 0
    verdict = "score.scores" if points else "score.blocked"
    return ScoreItem(
        source="tree",
        points=points,
        detail=TEXTS.english(verdict, colour=colour, height=height, left=left, right=right),
        id=colour,
        seat=seat,
        terms=[
            Term(name="height", value=height),
            Term(name="left", value=left),
            Term(name="right", value=right),
        ],
    )
