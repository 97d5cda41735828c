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
    state: State,
    seat: int,
    castles: list[tuple[int, int]],
    prefix: str,
    glade_scores: list[tuple[ScoreItem, list[int]]],
) -> list[ScoreItem]:
    """`seat`'s castles ((line, tile) each) and its share of each active glade."""
    cols, cells_of = state.cols, grid_of(state).lines
    items = [
        ScoreItem(
            source="castle",
            points=CASTLES[tile].points,
            detail=f"{prefix}castle {CASTLES[tile].letter} ({describe_line(state, line)})",
            id=CASTLES[tile].letter,
            seat=seat,
            cells=[Cell(row=cell // cols, col=cell % cols) for cell in cells_of[line]],
        )
        for line, tile in castles
    ]
    items += [
        msgspec.structs.replace(
            glade, points=points[seat], seat=seat, detail=f"{prefix}{glade.detail}"
        )
        for glade, points in glade_scores
    ]
    return items


def earliest_letter(castles: list[tuple[int, int]]) -> int:
    """Index of the earliest castle letter among (line, tile) pairs, or 16 if none (TL-11)."""
    return min((tile for _, tile in castles), default=len(CASTLES))


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
    teams = state.players == 4
    # A team entry lists both teammates' items, each naming its seat (TL-10); teammates' entries
    # share the item Structs of one call.
    held: list[list[tuple[int, int]]] = [[] for _ in range(state.players)]  # (line, tile)
    for line, castle in enumerate(state.castles):
        if castle.owner >= 0:
            held[castle.owner].append((line, castle.tile))
    items = [
        _items(state, member, held[member], f"seat {member}: " if teams else "", glade_scores)
        for member in range(state.players)
    ]
    own = [sum(item.points for item in member_items) for member_items in items]
    earliest = [earliest_letter(castles) for castles in held]
    entries: list[ScoreEntry] = []
    for seat in range(state.players):
        team = team_of(state, seat)
        entries.append(
            ScoreEntry(
                seat=seat,
                points=sum(own[member] for member in team),
                breakdown=[item for member in team for item in items[member]],
                # higher is better: holding letter A gives 16, holding no castle gives 0
                tiebreak=[len(CASTLES) - min(earliest[member] for member in team)],
                team=team if teams else None,
                seat_points=own[seat] if teams else None,
            )
        )
    final = state.phase == Phase.OVER
    winners: list[int] = []
    if final:
        best = max((e.points, e.tiebreak) for e in entries)
        winners = [e.seat for e in entries if (e.points, e.tiebreak) == best]
    return Scores(final=final, winners=winners, entries=entries)
