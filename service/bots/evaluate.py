"""How good a position is for each seat: the bots' one shared evaluation (docs/bots.md).

`margins` is a seat's points minus the best opponent's. Both come from the game's own hooks
(service.engine's contract): `game.bot_points(state)`, the points as the bots judge them (a game
may count more than its live scores, such as projects met but not yet scored), and
`game.opponents(state, seat)` (a team game names the other team). `rewards` maps a
position to [0, 1] per seat: 1 / 0.5 / 0 for a win / shared win / loss once the game is over,
else a logistic of the margin scaled by the game's `bot_tuning.margin_scale`. Nothing here names
a game: a new game sets its BotTuning and hooks in its own package.
"""

from __future__ import annotations

import math
from typing import Any

from service.engine import Game


def margins(game: Game[Any, Any], state: Any) -> list[float]:
    by_seat = game.bot_points(state)
    return [
        float(by_seat[seat] - max(by_seat[o] for o in game.opponents(state, seat)))
        for seat in range(len(by_seat))
    ]


def outcome(game: Game[Any, Any], state: Any) -> list[float]:
    """Per seat, in a finished game: 1 alone on top (with teammates), 0.5 tied, 0 beaten."""
    winners = game.scores(state).winners
    result = []
    for seat in range(_players(state)):
        if seat not in winners:
            result.append(0.0)
        elif any(o in winners for o in game.opponents(state, seat)):
            result.append(0.5)
        else:
            result.append(1.0)
    return result


def rewards(game: Game[Any, Any], state: Any) -> list[float]:
    if game.is_over(state):
        return outcome(game, state)
    # roughly the margin that decides a game: a margin this big maps to ~0.73
    scale = game.bot_tuning.margin_scale
    return [1.0 / (1.0 + math.exp(-m / scale)) for m in margins(game, state)]


def value(game: Game[Any, Any], state: Any, seat: int) -> float:
    """GREEDY's yardstick: the margin, with a finished game's result far above any margin."""
    margin = margins(game, state)[seat]
    if game.is_over(state):
        return margin + 1000.0 * (outcome(game, state)[seat] - 0.5)
    return margin


def _players(state: Any) -> int:
    players: int = state.players
    return players
