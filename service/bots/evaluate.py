"""How good a position is for each seat: the bots' one shared evaluation (docs/bots.md).

`margins` is a seat's points minus the best opponent's (with four Treeline players the other
team's, TL-10). In the Tree Lined Avenue live scores leave projects out (AV-9); on a sampled
state the bots add every seat's met projects, since a project's points are what a seat plays
for. `rewards` maps a position to [0, 1] per seat: 1 / 0.5 / 0 for a win / shared win / loss
once the game is over, else a logistic of the margin scaled per game.
"""

from __future__ import annotations

import math
from typing import Any

from service.engine import Game

# Roughly the margin that decides a game, per kind: a margin this big maps to ~0.73.
SCALE: dict[str, float] = {
    "TREELINE": 6.0,
    "TREELINGS": 6.0,
    "TREETOPIA": 10.0,
    "TREE_LINED_AVENUE": 12.0,
}


def points(game: Game[Any, Any], state: Any) -> list[int]:
    if game.kind == "TREE_LINED_AVENUE" and not game.is_over(state):
        return _avenue_points(state)
    by_seat = [0] * _players(state)
    for entry in game.scores(state).entries:
        by_seat[entry.seat] = entry.points
    return by_seat


def opponents(game: Game[Any, Any], state: Any, seat: int) -> list[int]:
    players = _players(state)
    if game.kind == "TREELINE" and players == 4:
        return [s for s in range(players) if s % 2 != seat % 2]  # TL-10: teams 0+2 and 1+3
    return [s for s in range(players) if s != seat]


def margins(game: Game[Any, Any], state: Any) -> list[float]:
    by_seat = points(game, state)
    return [
        float(by_seat[seat] - max(by_seat[o] for o in opponents(game, state, seat)))
        for seat in range(len(by_seat))
    ]


def outcome(game: Game[Any, Any], state: Any) -> list[float]:
    """Per seat, in a finished game: 1 alone on top (with teammates), 0.5 tied, 0 beaten."""
    winners = game.scores(state).winners
    result = []
    for seat in range(_players(state)):
        if seat not in winners:
            result.append(0.0)
        elif any(o in winners for o in opponents(game, state, seat)):
            result.append(0.5)
        else:
            result.append(1.0)
    return result


def rewards(game: Game[Any, Any], state: Any) -> list[float]:
    if game.is_over(state):
        return outcome(game, state)
    scale = SCALE.get(game.kind, 8.0)
    return [1.0 / (1.0 + math.exp(-m / scale)) for m in margins(game, state)]


def value(game: Game[Any, Any], state: Any, seat: int) -> float:
    """GREEDY's yardstick: the margin, with a finished game's result far above any margin."""
    margin = margins(game, state)[seat]
    if game.is_over(state):
        return margin + 1000.0 * (outcome(game, state)[seat] - 0.5)
    return margin


def turn_key(game: Game[Any, Any], state: Any) -> tuple[int, ...]:
    """Changes exactly when a new turn begins; GREEDY looks ahead until it changes."""
    if game.kind == "TREELINGS":
        return (state.seat,)
    if game.kind in ("TREELINE", "TREETOPIA"):
        return (state.active, state.turn if game.kind == "TREELINE" else state.turns)
    if game.kind == "TREE_LINED_AVENUE":
        return (state.round, state.turn)
    return (-1,)  # unknown game: look ahead greedy.LOOKAHEAD_DECISIONS decisions


def _players(state: Any) -> int:
    players: int = state.players
    return players


def _avenue_points(state: Any) -> list[int]:
    from service.games.avenue.cards import PROJECTS, SIZE
    from service.games.avenue.rules import EMPTY
    from service.games.avenue.scoring import avenue_points, avenue_rank, project_met_by

    tiles_at: dict[int, int] = {}
    for cell in state.tiles:
        tiles_at[cell] = tiles_at.get(cell, 0) + 1
    result = []
    for seat in range(state.players):
        total = 0
        for cell in state.gardeners[seat]:
            if cell == EMPTY:
                continue
            r, c = divmod(cell, SIZE)
            for line in (range(r * SIZE, r * SIZE + SIZE), range(c, SIZE * SIZE, SIZE)):
                cards = [state.park[x] for x in line if state.park[x] != EMPTY]
                if cards:
                    total += avenue_points(avenue_rank(cards)[0], tiles_at.get(cell, 0))
        for project in state.projects[seat]:
            if project_met_by(state, seat, project) != EMPTY:
                total += PROJECTS[project].points
        result.append(total)
    return result
