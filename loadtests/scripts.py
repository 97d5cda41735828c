"""Real games played ahead of time with the engine, so the load generator knows every legal
move before its timed request and never has to read between moves.

A game created on the server with the same seed follows the same course when sent the same
moves (the RNG lives in the state), so a script made here is accepted move by move there.
"""

from __future__ import annotations

import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec

from service.engine import play, start
from service.engine.play import encode_state
from service.games import games
from service.store import FORMAT, Record


@dataclass(frozen=True)
class Decision:
    seat: int
    move: Any  # JSON-ready, exactly as legalMoves listed it
    version: int  # the game's version before this move: the expectedVersion to send


@dataclass
class Script:
    kind: str
    players: int
    seed: str
    decisions: list[Decision]
    final_version: int


@dataclass
class Stage:
    """The game as stored after `decisions` moves of a script."""

    record: Record
    decisions: int


def play_random(
    kind: str, players: int, seed: str, chooser: random.Random, stop_at: int | None = None
) -> tuple[Script, Any, int]:
    """A whole game of random legal moves (or its first `stop_at` decisions); returns the
    script, the last state and its version."""
    game = games()[kind]
    played = start(game, players, {}, seed)
    state, version = played.state, len(played.steps)
    decisions: list[Decision] = []
    while not game.is_over(state) and (stop_at is None or len(decisions) < stop_at):
        seat = chooser.choice(game.to_act(state))
        move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
        decisions.append(Decision(seat, move, version))
        played = play(game, state, seat, move)
        state, version = played.state, version + len(played.steps)
    return Script(kind, players, seed, decisions, version), state, version


def record_of(kind: str, players: int, seed: str, state: Any, version: int) -> Record:
    """A Record as the service stores it, for a game in `state` (random token hashes)."""
    game = games()[kind]
    now = time.time()
    return Record(
        format=FORMAT,
        kind=kind,
        players=players,
        version=version,
        finished=game.is_over(state),
        seed=seed,
        token_hashes=[secrets.token_bytes(32) for _ in range(players)],
        state=encode_state(state),
        created=now,
        updated=now,
    )


def random_players(kind: str, chooser: random.Random) -> int:
    game = games()[kind]
    return chooser.randint(game.min_players, game.max_players)


@dataclass
class Table:
    """A game created on the server, its seat tokens, and how far the script has come."""

    id: str
    tokens: list[str]
    script: Script
    next: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return self.next >= len(self.script.decisions)

    @property
    def seat_to_act(self) -> int:
        """A seat that acts at the table's current point (seat 0 once it is over)."""
        return 0 if self.done else self.script.decisions[self.next].seat

    @property
    def version(self) -> int:
        if self.done:
            return self.script.final_version
        return self.script.decisions[self.next].version
