"""The bots' entry points: one suggestion, and playing every bot seat that is due.

SEARCH's default budget is the game's own `bot_tuning.search_iterations` (service.engine's
BotTuning, set in the game's package)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, get_args

import msgspec

from service.bots import greedy, ismcts
from service.engine import Game, Played, Rng, Step, play

Strategy = Literal["RANDOM", "GREEDY", "SEARCH"]
STRATEGIES: tuple[Strategy, ...] = get_args(Strategy)


def suggest(
    game: Game[Any, Any],
    state: Any,
    seat: int,
    strategy: Strategy,
    *,
    seed: int,
    iterations: int | None = None,
    deadline: Callable[[], bool] | None = None,
) -> Any:
    """A legal move of `seat`, which must be to act. Depends only on `seat`'s view, the seed and
    the budget: with `deadline` None the result is reproducible."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}, expected one of {STRATEGIES}")
    if game.is_over(state) or seat not in game.to_act(state):
        raise ValueError(f"seat {seat} does not act now")
    rng = Rng.from_seed(f"{strategy}:{seed}")
    if strategy == "RANDOM":
        return rng.choice(game.legal_moves(state, seat))
    if strategy == "GREEDY":
        return greedy.choose(game, state, seat, rng)
    if iterations is None and deadline is None:
        # about 100 ms per decision on one idle core, as the game measured it (docs/bots.md)
        iterations = game.bot_tuning.search_iterations
    return ismcts.choose(game, state, seat, rng, iterations, deadline)


def play_bots(
    game: Game[Any, Any],
    state: Any,
    bots: Mapping[int, Strategy],
    *,
    seed: int,
    iterations: int | None = None,
    deadline: Callable[[], Callable[[], bool]] | None = None,
    max_decisions: int = 10_000,
) -> Played:
    """While a seat in `bots` is to act and the game is not over, let it decide and apply the
    move with the engine's play(). Returns the new state and every step (forced ones included),
    for one write. `state` is left untouched. `deadline`, if given, makes one fresh per-decision
    deadline each time it is called. Decision k uses seed `seed + k`."""
    steps: list[Step] = []
    for k in range(max_decisions):
        if game.is_over(state):
            break
        due = [s for s in game.to_act(state) if s in bots]
        if not due:
            break
        seat = due[0]
        move = suggest(
            game,
            state,
            seat,
            bots[seat],
            seed=seed + k,
            iterations=iterations,
            deadline=deadline() if deadline else None,
        )
        played = play(game, state, seat, msgspec.to_builtins(move))
        state = played.state
        steps.extend(played.steps)
    return Played(state, steps)
