"""Positions for the takeback tests, found by the engine for any game: a seeded game of random
legal decisions, and in it a decision its seat may take back alone (nothing revealed, nothing
random: the game's own `takeback_safe`), one it may not (a reveal or a random event), and one
followed by another seat's decision."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import msgspec

from service.engine import Game, play, start
from service.games import games


@dataclass
class Decision:
    seat: int
    move: Any  # JSON builtins
    safe: bool  # takeback_safe of the states before and after its commit


# Treeline hides something only in the Full Game: its glades (TL-13)
OPTIONS: dict[str, dict[str, Any]] = {"TREELINE": {"fullGame": True}}


def decisions(kind: str, players: int, seed: str, count: int = 200) -> list[Decision]:
    """The first `count` decisions of a seeded game (fewer if it ends), each with whether it
    is safe to take back alone."""
    game: Game[Any, Any] = games()[kind]
    state = start(game, players, OPTIONS.get(kind), seed).state
    chooser, made = random.Random(seed), []
    while len(made) < count and not game.is_over(state):
        seat = game.to_act(state)[0]
        move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
        after = play(game, state, seat, move).state
        made.append(Decision(seat, move, game.takeback_safe(state, after)))
        state = after
    return made


def first(made: list[Decision], safe: bool) -> int:
    """The index of the first decision that is (not) `safe`."""
    return next(i for i, d in enumerate(made) if d.safe == safe)


def first_answered(made: list[Decision]) -> int:
    """The index of the first decision another seat's decision follows."""
    return next(i for i, d in enumerate(made[:-1]) if made[i + 1].seat != d.seat)
