"""SEARCH: single-observer information-set Monte Carlo tree search (docs/bots.md).

Every iteration draws one sample of the hidden parts from the searching seat's view (the
game's `determinize`), walks the tree of public decisions by UCT (each seat choosing for
itself; a child's availability counts the iterations in which its move was legal, since a
sample can change what is legal), adds one node, plays random moves from there for at most
`rollout_cap` decisions, and backs up every seat's reward in [0, 1] (evaluate.rewards). The
move played is the root child visited most. Forced decisions (one option) are no tree nodes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from service.bots import evaluate
from service.bots.sampling import determinize, forward
from service.engine import Game, Rng

EXPLORATION = 0.7
ROLLOUT_CAP: dict[str, int] = {
    "TREELINE": 40,
    "TREELINGS": 60,
    "TREETOPIA": 40,
    "TREE_LINED_AVENUE": 40,
}


class Node:
    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat whose move leads here; its rewards are summed
        self.children: dict[tuple[int, Any], Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


def choose(
    game: Game[Any, Any],
    state: Any,
    seat: int,
    rng: Rng,
    iterations: int | None,
    deadline: Callable[[], bool] | None,
    rollout_cap: int | None = None,
) -> Any:
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    cap = rollout_cap if rollout_cap is not None else ROLLOUT_CAP.get(game.kind, 40)
    root = Node(-1)
    done = 0
    while (iterations is None or done < iterations) and not (deadline and deadline()):
        _iterate(game, determinize(game, state, seat, rng), root, rng, cap)
        done += 1
    best = None
    best_key: tuple[int, float, int] = (-1, -1.0, 0)
    for index, move in enumerate(moves):
        child = root.children.get((seat, move))
        key = (0, 0.0, -index) if child is None else (child.visits, _mean(child), -index)
        if key > best_key:
            best, best_key = move, key
    return best


def _iterate(game: Game[Any, Any], state: Any, root: Node, rng: Rng, cap: int) -> None:
    path = [root]
    node = root
    expanded = False
    while not expanded and not game.is_over(state):
        actor = game.to_act(state)[0]
        moves = game.legal_moves(state, actor)
        if len(moves) == 1:
            forward(game, state, actor, moves[0])
            continue
        untried = []
        for move in moves:
            child = node.children.get((actor, move))
            if child is None:
                untried.append(move)
            else:
                child.avail += 1
        if untried:
            move = rng.choice(untried)
            child = Node(actor)
            child.avail = 1
            node.children[(actor, move)] = child
            expanded = True
        else:
            move, child = _select(node, actor, moves)
        forward(game, state, actor, move)
        path.append(child)
        node = child
    for _ in range(cap):
        if game.is_over(state):
            break
        actor = game.to_act(state)[0]
        forward(game, state, actor, rng.choice(game.legal_moves(state, actor)))
    rewards = evaluate.rewards(game, state)
    for visited in path[1:]:
        visited.visits += 1
        visited.total += rewards[visited.mover]


def _select(node: Node, actor: int, moves: list[Any]) -> tuple[Any, Node]:
    best: tuple[Any, Node] | None = None
    best_score = -math.inf
    for move in moves:
        child = node.children[(actor, move)]
        score = _mean(child) + EXPLORATION * math.sqrt(math.log(child.avail) / child.visits)
        if score > best_score:
            best, best_score = (move, child), score
    assert best is not None
    return best


def _mean(node: Node) -> float:
    return node.total / node.visits if node.visits else 0.0
