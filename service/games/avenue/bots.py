"""How the bots value an Avenue position (the game's `bot_points` hook, docs/bots.md).

Live scores leave projects out until the end (AV-9), but a project's points are what a seat
plays for: on the bots' sampled states every seat's met projects count as well as its avenues.
"""

from __future__ import annotations

from service.games.avenue.cards import PROJECTS, SIZE
from service.games.avenue.rules import EMPTY
from service.games.avenue.scoring import avenue_points, avenue_rank, project_met_by
from service.games.avenue.state import State


def points(state: State) -> list[int]:
    """Per seat: the avenues its gardeners score now, plus the projects it has met (AV-9)."""
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
