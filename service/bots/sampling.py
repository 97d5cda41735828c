"""The bots' access to a game: its hidden-information sampler and fast in-place stepping.

A game joins the bots by giving its game object `determinize(state, seat, rng) -> State`: a
fresh copy in which everything `seat` cannot see is re-drawn by `rng`, consistently with what
it can see, and whose value depends on the seat's view and `rng` only (never on the true hidden
parts). Every bot decision starts from such a copy, so no strategy reads hidden information.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from service.engine import Game, Rng
from service.engine.play import copy_state

Decision = tuple[int, list[Any]]


@runtime_checkable
class Sampler(Protocol):
    def determinize(self, state: Any, seat: int | None, rng: Rng) -> Any: ...


def determinize(game: Game[Any, Any], state: Any, seat: int, rng: Rng) -> Any:
    if not isinstance(game, Sampler):
        raise TypeError(f"{game.title} has no determinize(): bots cannot play it")
    return game.determinize(state, seat, rng)


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
