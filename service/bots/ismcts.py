"""SEARCH: single-observer information-set Monte Carlo tree search (docs/bots.md).

Every iteration draws one sample of the hidden parts from the searching seat's view (the
game's `determinize`), walks the tree of public decisions by UCT (each seat choosing for
itself; a child's availability counts the iterations in which its move was legal, since a
sample can change what is legal), adds one node, plays a rollout from there (the game's
BotTuning: the turn in progress finished by GREEDY's one-step policy if `finish_turn` is set,
then at most `rollout_cap` random decisions), and backs up every seat's reward in [0, 1]
(evaluate.rewards). The root's moves start with PRIOR_VISITS virtual visits worth GREEDY's
judgement. The move played is the root child visited most. Forced decisions (one option) are
no tree nodes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from service.bots import evaluate, greedy
from service.bots.sampling import Decision, forward
from service.engine import Game, Rng

EXPLORATION = 0.7
PRIOR_VISITS = 10


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
    rollout: tuple[int, bool] | None = None,
) -> Any:
    """`rollout` (cap, finish_turn) overrides the game's bot_tuning, for tuning runs."""
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    tuning = game.bot_tuning
    cap, finish_turn = rollout or (tuning.rollout_cap, tuning.finish_turn)
    root = Node(-1)
    if PRIOR_VISITS:
        _seed_root(game, state, seat, moves, rng, root)
    done = 0
    while (iterations is None or done < iterations) and not (deadline and deadline()):
        sample = game.determinize(state, seat, rng)
        _iterate(game, sample, (seat, moves), root, rng, cap, finish_turn)
        done += 1
    best = None
    best_key: tuple[int, float, int] = (-1, -1.0, 0)
    for index, move in enumerate(moves):
        child = root.children.get((seat, move))
        key = (0, 0.0, -index) if child is None else (child.visits, _mean(child), -index)
        if key > best_key:
            best, best_key = move, key
    return best


def _seed_root(
    game: Game[Any, Any], state: Any, seat: int, moves: list[Any], rng: Rng, root: Node
) -> None:
    """Progressive bias at the root: each move starts with PRIOR_VISITS virtual visits worth
    GREEDY's judgement of it (the reward at the end of the turn, on one sample), so a short
    search plays at least as well as GREEDY and the real visits then correct it."""
    sample = game.determinize(state, seat, rng)
    for move, end in zip(moves, greedy.turn_ends(game, sample, seat, moves, rng), strict=True):
        child = Node(seat)
        child.visits = child.avail = PRIOR_VISITS
        child.total = PRIOR_VISITS * evaluate.rewards(game, end)[seat]
        root.children[(seat, move)] = child


def _iterate(
    game: Game[Any, Any],
    state: Any,
    owed: Decision | None,
    root: Node,
    rng: Rng,
    cap: int,
    finish_turn: bool,
) -> None:
    """One iteration on the sample `state`, whose first decision `owed` is the searcher's."""
    path = [root]
    node = root
    while owed is not None:
        actor, moves = owed
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
        else:
            move, child = _select(node, actor, moves)
        owed = forward(game, state, actor, move)
        path.append(child)
        node = child
        if untried:
            break
    if finish_turn and owed is not None:
        owed = greedy.finish_turn(game, state, game.turn_key(state), rng)
    for _ in range(cap):
        if owed is None:
            break
        actor, moves = owed
        owed = forward(game, state, actor, rng.choice(moves))
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
