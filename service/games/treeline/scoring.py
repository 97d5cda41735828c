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
from service.games.treeline.state import Castle, Phase, State, grid_of, rc, team_of
from service.games.treeline.texts import TEXTS


def _castle_detail(state: State, line: int, seat: int, letter: str) -> str:
    """A team entry lists both teammates' items, so each item's detail names its seat (TL-10)."""
    on_column = line < state.cols
    number = line if on_column else line - state.cols
    if state.players == 4:
        key = "score.seatCastleColumn" if on_column else "score.seatCastleRow"
        return TEXTS.english(key, seat=seat, castle=letter, line=number)
    key = "score.castleColumn" if on_column else "score.castleRow"
    return TEXTS.english(key, castle=letter, line=number)


def _castle_item(state: State, line: int, castle: Castle) -> ScoreItem:
    card = CASTLES[castle.tile]
    cols = state.cols
    return ScoreItem(
        source="castle",
        points=card.points,
        detail=_castle_detail(state, line, castle.owner, card.letter),
        id=card.letter,
        seat=castle.owner,
        cells=[Cell(row=cell // cols, col=cell % cols) for cell in grid_of(state).lines[line]],
    )


def _glade_detail(state: State, seat: int, item: ScoreItem) -> str:
    """The glade's detail, naming the seat in a team entry (TL-10)."""
    if state.players != 4:
        return item.detail
    cell = item.cells[0]
    name = next(card.name for card in GLADES if card.id == item.id)
    return TEXTS.english("score.seatGlade", seat=seat, glade=name, row=cell.row, col=cell.col)


def scores(state: State) -> Scores:
    glade_scores: list[tuple[ScoreItem, list[int]]] = []
    for glade in state.glades:
        if is_active(state, glade):
            row, col = rc(state, glade.cell)
            card = GLADES[glade.kind]
            item = ScoreItem(
                source="glade",
                points=0,
                detail=TEXTS.english("score.glade", glade=card.name, row=row, col=col),
                id=card.id,
                cells=[Cell(row=row, col=col)],
            )
            glade_scores.append((item, glade_points(state, glade)))
    # Each seat's items: its castles in line order, then its share of each active glade.
    # Teammates' entries share the item Structs of one call.
    items: list[list[ScoreItem]] = [[] for _ in range(state.players)]
    earliest = [len(CASTLES)] * state.players  # the earliest castle letter each seat holds (TL-11)
    for line, castle in enumerate(state.castles):
        if castle.owner >= 0:
            items[castle.owner].append(_castle_item(state, line, castle))
            earliest[castle.owner] = min(earliest[castle.owner], castle.tile)
    for glade_item, points in glade_scores:
        for seat, seat_items in enumerate(items):
            seat_items.append(
                msgspec.structs.replace(
                    glade_item,
                    points=points[seat],
                    seat=seat,
                    detail=_glade_detail(state, seat, glade_item),
                )
            )
    own = [sum(item.points for item in seat_items) for seat_items in items]
    teams = state.players == 4
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
