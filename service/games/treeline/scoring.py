"""Live and final scores (RULINGS TL-10, TL-11, TL-14).

With four players every seat's entry carries its team's total: the breakdown lists the items
of both teammates (each item names its seat), so points == sum(breakdown) still holds, and
`seatPoints` gives the seat's own share.
"""

from __future__ import annotations

import msgspec

from service.engine import Cell, ScoreEntry, ScoreItem, Scores
from service.games.treeline.cards import CASTLES, GLADES
from service.games.treeline.glades import glade_points, is_active
from service.games.treeline.state import Phase, State, grid_of, rc, team_of


def describe_line(state: State, line: int) -> str:
    return f"column {line}" if line < state.cols else f"row {line - state.cols}"


def _items(
    state: State, seat: int, glade_scores: list[tuple[ScoreItem, list[int]]]
) -> list[ScoreItem]:
    items = [
        ScoreItem(
            source="castle",
            points=CASTLES[castle.tile].points,
            detail=f"castle {CASTLES[castle.tile].letter} ({describe_line(state, line)})",
            id=CASTLES[castle.tile].letter,
            seat=seat,
            cells=[
                Cell(row=r, col=c) for r, c in (rc(state, x) for x in grid_of(state).lines[line])
            ],
        )
        for line, castle in enumerate(state.castles)
        if castle.owner == seat
    ]
    items += [
        msgspec.structs.replace(glade, points=points[seat], seat=seat)
        for glade, points in glade_scores
    ]
    return items


def earliest_letter(state: State, seats: list[int]) -> int:
    """Index of the earliest castle letter held by `seats`, or 16 if none (TL-11)."""
    return min((c.tile for c in state.castles if c.owner in seats), default=len(CASTLES))


def scores(state: State) -> Scores:
    glade_scores: list[tuple[ScoreItem, list[int]]] = []
    for glade in state.glades:
        if is_active(state, glade):
            row, col = rc(state, glade.cell)
            card = GLADES[glade.kind]
            item = ScoreItem(
                source="glade",
                points=0,
                detail=f"{card.name} glade at ({row},{col})",
                id=card.id,
                cells=[Cell(row=row, col=col)],
            )
            glade_scores.append((item, glade_points(state, glade)))
    items = [_items(state, member, glade_scores) for member in range(state.players)]
    entries: list[ScoreEntry] = []
    for seat in range(state.players):
        team = team_of(state, seat)
        breakdown: list[ScoreItem] = []
        for member in team:
            if len(team) > 1:
                breakdown += [
                    msgspec.structs.replace(item, detail=f"seat {member}: {item.detail}")
                    for item in items[member]
                ]
            else:
                breakdown += items[member]
        entries.append(
            ScoreEntry(
                seat=seat,
                points=sum(item.points for item in breakdown),
                breakdown=breakdown,
                # higher is better: holding letter A gives 16, holding no castle gives 0
                tiebreak=[len(CASTLES) - earliest_letter(state, team)],
                team=team if len(team) > 1 else None,
                seat_points=sum(i.points for i in items[seat]) if len(team) > 1 else None,
            )
        )
    final = state.phase == Phase.OVER
    winners: list[int] = []
    if final:
        best = max((e.points, e.tiebreak) for e in entries)
        winners = [e.seat for e in entries if (e.points, e.tiebreak) == best]
    return Scores(final=final, winners=winners, entries=entries)
