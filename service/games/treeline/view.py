"""The table as a seat or a spectator sees it (RULINGS ALL-4, TL-13).

Everything on a Treeline table is public except which glade lies where while it is Town side
up: the view shows such a cell as a glade with its identity left out. The Rng never appears.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain
from typing import TYPE_CHECKING, Literal

from service.engine import Wire, closed_set
from service.games.treeline.cards import CASTLES, DATA, GLADES
from service.games.treeline.state import (
    End,
    Phase,
    State,
    grid_of,
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


# Frozen so that TOKEN_VIEWS can be shared by every view; msgspec allows a frozen Struct under
# a mutable base, mypy's dataclass rule does not know that.
class TokenView(Wire, frozen=True):  # type: ignore[misc]
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


# One TokenView per token (a small int, state.token), shared by every view.
TOKEN_VIEWS = tuple(
    TokenView(seat=owner(tok), energized=is_energized(tok)) for tok in range(2 * max(DATA.grids))
)


def _cells(state: State) -> list[CellView]:
    cells = [
        CellView(
            row=row,
            col=col,
            kind="land" if spaces else "start",
            spaces=spaces,
            forest=forest,
            tokens=[TOKEN_VIEWS[tok] for tok in toks] if toks else [],
        )
        for (row, col), spaces, forest, toks in zip(
            grid_of(state).coords, state.land, state.forest, state.tokens, strict=True
        )
    ]
    for glade in reversed(state.glades):  # so the first glade on a cell is the one shown
        cell = cells[glade.cell]
        if cell.spaces:
            cell.kind = "glade"
            # TL-13: the identity stays hidden while the glade is Town side up
            cell.glade = GLADES[glade.kind].id if cell.forest else None
    return cells


def _castles(state: State) -> list[CastleView]:
    return [
        CastleView(
            letter=CASTLES[castle.tile].letter,
            points=CASTLES[castle.tile].points,
            line=line,
            index=index,
            owner=None if castle.owner < 0 else castle.owner,
            stationed=[TOKEN_VIEWS[tok] for tok in castle.stationed] if castle.stationed else [],
        )
        for (line, index), castle in zip(grid_of(state).places, state.castles, strict=True)
    ]


def _per_seat(state: State, toks: Iterable[int]) -> list[int]:
    """How many of `toks` each seat owns."""
    counts = [0] * state.players
    for tok in toks:
        counts[owner(tok)] += 1
    return counts


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
    on_cards = _per_seat(state, chain.from_iterable(filter(None, state.tokens)))
    stationed = _per_seat(state, chain.from_iterable(castle.stationed for castle in state.castles))
    coords = grid_of(state).coords
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
        castles=_castles(state),
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
        flipped_this_turn=[coords[cell] for cell in state.flipped],
        deployed_this_turn=[coords[cell] for cell in state.deployed],
        claims_waiting=[CASTLES[state.castles[line].tile].letter for line in state.claims],
        town_cards=town_count(state),
        end_reason=ENDS[state.end],
    )
