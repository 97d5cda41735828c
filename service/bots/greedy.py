"""GREEDY: the move with the best immediate change of the score margin (docs/bots.md).

Most decisions are part of a turn and change no score by themselves (take a card, then plant
it), so each candidate is judged at the end of the turn it belongs to: after it, the turn is
completed one decision at a time by whoever owes them, each choosing the move that is best for
itself one step ahead. Where a turn ends is the game's `turn_key` hook (service.engine's
contract: it changes exactly when a new turn begins); a game whose key never changes gets
LOOKAHEAD_DECISIONS decisions. Equal candidates are broken by the seed. It runs on one sample
of the hidden parts, never on the true ones.
"""

from __future__ import annotations

from typing import Any

from service.bots import evaluate
from service.bots.sampling import Decision, copy, decision, forward
from service.engine import Game, Rng

LOOKAHEAD_DECISIONS = 40  # a safety cap on the completion of one turn


def choose(game: Game[Any, Any], state: Any, seat: int, rng: Rng) -> Any:
    sample = game.determinize(state, seat, rng)
    moves = game.legal_moves(sample, seat)
    if len(moves) == 1:
        return moves[0]
    scored = [
        evaluate.value(game, after, seat) for after in turn_ends(game, sample, seat, moves, rng)
    ]
    return _best(moves, scored, rng)


def turn_ends(
    game: Game[Any, Any], sample: Any, seat: int, moves: list[Any], rng: Rng
) -> list[Any]:
    """For each move, the sampled position at the end of the turn: the move, then the rest of
    the turn by the one-step policy."""
    turn = game.turn_key(sample)
    ends = []
    for move in moves:
        after = copy(game, sample)
        forward(game, after, seat, move)
        finish_turn(game, after, turn, rng)
        ends.append(after)
    return ends


def one_step(
    game: Game[Any, Any], state: Any, seat: int, rng: Rng, moves: list[Any] | None = None
) -> Any:
    """The move best for `seat` right after it (no completion): the completion policy."""
    moves = moves if moves is not None else game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    scored = []
    for move in moves:
        after = copy(game, state)
        forward(game, after, seat, move)
        scored.append(evaluate.value(game, after, seat))
    return _best(moves, scored, rng)


def finish_turn(
    game: Game[Any, Any], state: Any, turn: tuple[int, ...], rng: Rng
) -> Decision | None:
    """Play the rest of turn `turn` in place by the one-step policy; the next decision owed."""
    owed = decision(game, state)
    for _ in range(LOOKAHEAD_DECISIONS):
        if owed is None or game.turn_key(state) != turn:
            break
        actor, moves = owed
        owed = forward(game, state, actor, one_step(game, state, actor, rng, moves))
    return owed


def _best(moves: list[Any], scored: list[float], rng: Rng) -> Any:
    top = max(scored)
    return rng.choice([m for m, v in zip(moves, scored, strict=True) if v == top])
