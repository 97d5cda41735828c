"""The table as a seat or a spectator sees it (RULINGS ALL-4, TL-13).

Everything on a Treeline table is public except which glade lies where while it is Town side
up: the view shows such a cell as a glade with its identity left out. The Rng never appears.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from service.engine import Wire, closed_set
from service.games.treeline.cards import CASTLES, GLADES
from service.games.treeline.state import (
    Castle,
    End,
    Phase,
    State,
    is_energized,
    owner,
    rc,
    team_of,
    town_count,
)

PHASES: dict[Phase, str] = {
    Phase.STRATEGIC: "strategicStart",
    Phase.REFOREST: "reforest",
    Phase.DEPLOY_CARD: "deployCard",
    Phase.DEPLOY_SOURCE: "deploySource",
    Phase.STATION: "station",
    Phase.ENERGIZE: "energize",
    Phase.OVER: "over",
}
ENDS: dict[End, str | None] = {
    End.NONE: None,
    End.FEW_TOWNS: "fourOrFewerTownCards",
    End.NO_REFOREST: "noLegalReforest",
}

if TYPE_CHECKING:
    PhaseName = str
    EndReason = str
    Letter = str
    GladeId = str
else:
    PhaseName = closed_set("Phase", PHASES.values())
    EndReason = closed_set("EndReason", (e for e in ENDS.values() if e))
    Letter = closed_set("CastleLetter", (c.letter for c in CASTLES))
    GladeId = closed_set("GladeId", (g.id for g in GLADES))


class TokenView(Wire):
    seat: int
    energized: bool


class CellView(Wire):
    row: int
    col: int
    kind: Literal["start", "land", "glade"]
    spaces: int
    forest: bool
    tokens: list[TokenView]
    glade: GladeId | None = None  # the glade's id, only once it is Forest side up


class CastleView(Wire):
    letter: Letter
    points: int
    line: Literal["column", "row"]
    index: int
    owner: int | None
    stationed: list[TokenView]


class SeatView(Wire):
    seat: int
    supply: int
    on_cards: int
    stationed: int
    team: list[int]


class PendingView(Wire):
    seat: int
    decision: PhaseName
    card: tuple[int, int] | None = None  # the card being deployed to
    spaces_left: int = 0
    castle: Letter | None = None  # the castle being claimed
    station_left: int = 0


class TreelineView(Wire):
    viewer: int | None
    players: int
    rows: int
    cols: int
    full_game: bool
    turn: int
    active_seat: int
    phase: PhaseName
    pending: PendingView | None
    cells: list[CellView]
    castles: list[CastleView]
    seats: list[SeatView]
    flipped_this_turn: list[tuple[int, int]]
    deployed_this_turn: list[tuple[int, int]]
    claims_waiting: list[Letter]
    town_cards: int
    end_reason: EndReason | None


def _tokens(toks: list[int]) -> list[TokenView]:
    return [TokenView(seat=owner(t), energized=is_energized(t)) for t in toks]


def _cells(state: State) -> list[CellView]:
    glades = {glade.cell: glade for glade in reversed(state.glades)}  # the first per cell
    cols = state.cols
    cells: list[CellView] = []
    for cell, (spaces, forest, toks) in enumerate(
        zip(state.land, state.forest, state.tokens, strict=True)
    ):
        glade = glades.get(cell) if glades else None
        kind: Literal["start", "land", "glade"] = (
            "start" if spaces == 0 else "glade" if glade else "land"
        )
        cells.append(
            CellView(
                row=cell // cols,
                col=cell % cols,
                kind=kind,
                spaces=spaces,
                forest=forest,
                # TL-13: the identity stays hidden while the glade is Town side up
                glade=GLADES[glade.kind].id if glade and forest else None,
                tokens=_tokens(toks) if toks else [],
            )
        )
    return cells


def _castle(state: State, line: int, castle: Castle) -> CastleView:
    return CastleView(
        letter=CASTLES[castle.tile].letter,
        points=CASTLES[castle.tile].points,
        line="column" if line < state.cols else "row",
        index=line if line < state.cols else line - state.cols,
        owner=None if castle.owner < 0 else castle.owner,
        stationed=_tokens(castle.stationed),
    )


def _pending(state: State) -> PendingView | None:
    if state.phase == Phase.OVER:
        return None
    pending = PendingView(seat=state.actor, decision=PHASES[state.phase])
    if state.phase == Phase.DEPLOY_SOURCE:
        pending.card = rc(state, state.target)
        pending.spaces_left = state.land[state.target] - len(state.tokens[state.target])
    if state.phase in (Phase.STATION, Phase.ENERGIZE):
        pending.castle = CASTLES[state.castles[state.claim_line].tile].letter
        pending.station_left = state.station_left
    return pending


def view(state: State, seat: int | None) -> TreelineView:
    stationed = [0] * state.players
    for castle in state.castles:
        for tok in castle.stationed:
            stationed[owner(tok)] += 1
    on_cards = [0] * state.players
    for toks in state.tokens:
        if toks:
            for tok in toks:
                on_cards[owner(tok)] += 1
    return TreelineView(
        viewer=seat,
        players=state.players,
        rows=state.rows,
        cols=state.cols,
        full_game=state.full_game,
        turn=state.turn,
        active_seat=state.active,
        phase=PHASES[state.phase],
        pending=_pending(state),
        cells=_cells(state),
        castles=[_castle(state, line, castle) for line, castle in enumerate(state.castles)],
        seats=[
            SeatView(
                seat=s,
                supply=state.supply[s],
                on_cards=on_cards[s],
                stationed=stationed[s],
                team=team_of(state, s),
            )
            for s in range(state.players)
        ],
        flipped_this_turn=[rc(state, cell) for cell in state.flipped],
        deployed_this_turn=[rc(state, cell) for cell in state.deployed],
        claims_waiting=[CASTLES[state.castles[line].tile].letter for line in state.claims],
        town_cards=town_count(state),
        end_reason=ENDS[state.end],
    )
