"""The bots' access to a game: its hidden-information sampler and fast in-place stepping.

Every bot decision starts from `Game.determinize` (the engine contract): a copy in which
everything the seat cannot see is re-drawn, so no strategy reads hidden information.
"""

from __future__ import annotations

from typing import Any

from service.engine import Game
from service.engine.play import copy_state

Decision = tuple[int, list[Any]]


def copy(game: Game[Any, Any], state: Any) -> Any:
    return copy_state(game, state)


def forward(game: Game[Any, Any], state: Any, seat: int, move: Any) -> Decision | None:
    """Apply `move` and every forced decision after it, in place (RULINGS ALL-3, like the
    engine's play() but without its checks, copy and labels: the bots only pick listed moves).
    Returns the next real decision (its seat and options), or None once the game is over."""
    game.apply(state, seat, move)
    while not game.is_over(state):
        seats = game.to_act(state)
        for actor in seats:
            moves = game.legal_moves(state, actor)
            if len(moves) == 1:
                game.apply(state, actor, moves[0])
                break
        else:
            actor = seats[0]
            return actor, game.legal_moves(state, actor) if len(seats) > 1 else moves
    return None


def decision(game: Game[Any, Any], state: Any) -> Decision | None:
    """The decision owed now (the first seat to act), or None once the game is over."""
    if game.is_over(state):
        return None
    actor = game.to_act(state)[0]
    return actor, game.legal_moves(state, actor)
