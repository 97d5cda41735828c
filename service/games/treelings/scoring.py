"""Scoring: a tree scores its height if it is at least as tall as both neighbours (TG-8), the
districts forming a ring in seat order (TG-7)."""

from __future__ import annotations

import msgspec

from service.engine import ScoreEntry, ScoreItem, Scores, Term
from service.games.treelings.cards import COLOURS
from service.games.treelings.state import State, Tree


class TreeScore(msgspec.Struct, frozen=True):
    tree: Tree
    left: int  # height of the neighbouring tree on the left, 0 if there is none
    right: int
    points: int


def neighbours(state: State, seat: int, index: int) -> tuple[int, int]:
    """TG-7: the end trees of a district face the end trees of seat-1 and seat+1; with two
    players both ends face the other seat. Gap: a missing neighbour (only an empty district
    could cause it, and the deal rules one out) counts as height 0."""
    trees = state.districts[seat]
    n = state.players
    if index > 0:
        left = trees[index - 1].height
    else:
        before = state.districts[(seat - 1) % n]
        left = before[-1].height if before else 0
    if index < len(trees) - 1:
        right = trees[index + 1].height
    else:
        after = state.districts[(seat + 1) % n]
        right = after[0].height if after else 0
    return left, right


def district_scores(state: State, seat: int) -> list[TreeScore]:
    result = []
    for index, tree in enumerate(state.districts[seat]):
        left, right = neighbours(state, seat, index)
        points = tree.height if tree.height >= left and tree.height >= right else 0
        result.append(TreeScore(tree, left, right, points))
    return result


def scores(state: State) -> Scores:
    entries = []
    for seat in range(state.players):
        items = [_item(seat, s) for s in district_scores(state, seat)]
        scoring_trees = sum(1 for item in items if item.points)
        entries.append(
            ScoreEntry(
                seat=seat,
                points=sum(item.points for item in items),
                breakdown=items,
                tiebreak=[scoring_trees],  # TG-8: more scoring trees, then shared victory
            )
        )
    winners: list[int] = []
    if state.over:
        best = max((e.points, e.tiebreak) for e in entries)
        winners = [e.seat for e in entries if (e.points, e.tiebreak) == best]
    return Scores(final=state.over, winners=winners, entries=entries)


def _item(seat: int, score: TreeScore) -> ScoreItem:
    colour = COLOURS[score.tree.colour]
    verdict = "scores" if score.points else "blocked"
    detail = (
        f"{colour} tree of {score.tree.height}, neighbours {score.left} (left) "
        f"and {score.right} (right): {verdict}"
    )
    terms = {"height": score.tree.height, "left": score.left, "right": score.right}
    return ScoreItem(
        source="tree",
        points=score.points,
        detail=detail,
        id=colour,
        seat=seat,
        terms=[Term(name=name, value=value) for name, value in terms.items()],
    )
