"""The conformance suite every game runs through (like OpenSpiel's random_sim_test).

For each seed: start a game, then play random legal moves to the end. At every step `to_act`
is non-empty until the end, every listed legal move applies, a msgpack round trip gives an
identical state, views and scores encode, and replaying seed + moves reproduces the final state
byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from service.engine import Game, IllegalMove, Step, encode_state, play, start
from service.engine.play import decode_state

Invariant = Callable[[Any], None]


def playout(
    game: Game[Any, Any],
    players: int,
    seed: str,
    options: dict[str, Any] | None = None,
    invariant: Invariant | None = None,
    try_every_move: bool = True,
    max_steps: int = 20_000,
) -> tuple[Any, list[Step]]:
    """Play one random game to the end, checking the contract at every step."""
    chooser = random.Random(seed)
    played = start(game, players, options, seed)
    state, history = played.state, list(played.steps)
    _check_state(game, state, players, invariant)
    while not game.is_over(state):
        assert len(history) < max_steps, f"{game.title} did not end in {max_steps} steps"
        seats = game.to_act(state)
        assert seats, "nobody acts but the game is not over"
        for other in range(players):
            if other not in seats:
                assert game.legal_moves(state, other) == [], f"seat {other} may move out of turn"
        seat = chooser.choice(seats)
        moves = game.legal_moves(state, seat)
        assert moves, f"seat {seat} acts but has no legal move"
        wire_moves = [msgspec.to_builtins(m) for m in moves]
        assert len({msgspec.json.encode(m) for m in wire_moves}) == len(moves), "duplicate moves"
        if try_every_move:
            for wire in wire_moves:
                play(game, state, seat, wire)  # every listed move applies
        before = encode_state(state)
        played = play(game, state, seat, chooser.choice(wire_moves))
        assert encode_state(state) == before, "play() changed the state it was given"
        state = played.state
        history.extend(played.steps)
        _check_state(game, state, players, invariant)
    assert game.to_act(state) == []
    scores = game.scores(state)
    assert scores.final and scores.winners, "a finished game names its winners"
    assert sorted(e.seat for e in scores.entries) == list(range(players))
    _check_rejections(game, state)
    _check_replay(game, players, seed, options, history, state)
    return state, history


def _check_state(
    game: Game[Any, Any], state: Any, players: int, invariant: Invariant | None
) -> None:
    data = encode_state(state)
    assert encode_state(decode_state(game, data)) == data, "msgpack round trip changed the state"
    for viewer in [None, *range(players)]:
        msgspec.json.encode(game.view(state, viewer))
    for entry in game.scores(state).entries:
        assert entry.points == sum(item.points for item in entry.breakdown), "breakdown sum"
    if invariant is not None:
        invariant(state)


def _check_rejections(game: Game[Any, Any], state: Any) -> None:
    try:
        play(game, state, 0, {"type": "noSuchMove"})
    except IllegalMove as exc:
        assert exc.code == "GAME_OVER"
    else:
        raise AssertionError("a move was accepted after the end")


def _check_replay(
    game: Game[Any, Any],
    players: int,
    seed: str,
    options: dict[str, Any] | None,
    history: list[Step],
    final: Any,
) -> None:
    played = start(game, players, options, seed)
    state = played.state
    chosen = [s for s in history[len(played.steps) :] if not s.forced]
    for step in chosen:
        state = play(game, state, step.seat, msgspec.to_builtins(step.move)).state
    assert encode_state(state) == encode_state(final), "replay gave a different state"


def run(
    game: Game[Any, Any],
    player_counts: Iterable[int],
    seeds: Iterable[str],
    options: dict[str, Any] | None = None,
    invariant: Invariant | None = None,
    try_every_move: bool = True,
) -> None:
    for players in player_counts:
        for seed in seeds:
            playout(game, players, seed, options, invariant, try_every_move)
