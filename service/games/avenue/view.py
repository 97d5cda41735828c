"""What a seat may see (ALL-4, AV-9): the park, tiles, gardeners and both rows are public;
the deck and the project pile only as counts; project cards only to their owner until the end.
"""

from __future__ import annotations

from service.engine import Wire
from service.games.avenue.cards import ANIMALS, TILE_ANIMAL
from service.games.avenue.rules import EMPTY, gardener_seats, rounds, to_act
from service.games.avenue.scoring import projects_met
from service.games.avenue.state import Animal, Phase, PhaseName, State


class TileView(Wire):
    id: int
    animal: Animal
    cell: int
    owner: int  # the seat whose gardener stands on the tile's card, -1 if unowned (AV-6)


class SeatView(Wire):
    seat: int
    gardeners: list[int]  # cells, -1 for a gardener not yet placed
    project_count: int
    projects: list[int] | None = None  # ids, for the owner (and everyone once the game ends)
    projects_met: list[bool] | None = None  # the same order, as the park stands now


class AvenueView(Wire):
    players: int
    round: int
    rounds: int
    phase: PhaseName
    to_act: list[int]
    turn: int  # the acting token's turn-order marker, 0-based
    order: list[int]  # per marker: the seat whose token stands there this round
    next_order: list[int]  # per slot of `row`: the seat whose token took it (-1: not yet)
    park: list[int]  # per cell (row * 6 + column): card id or -1
    tiles: list[TileView]
    row: list[int]  # this round's cards by slot, -1 once taken
    next_row: list[int]
    deck_size: int
    project_deck_size: int
    seats: list[SeatView]
    chosen_slot: int = -1
    chosen_card: int = -1
    cell: int = -1  # the gardener or card placed this turn, or the relocated gardener's cell
    dest: int = -1
    picked_tile: int = -1
    tiles_moved: int = 0
    over: bool = False


# The turn's working fields are shown only in the phases they describe, never stale.
AFTER_CHOICE = {Phase.CELL, Phase.ACTION, Phase.RELOCATE_TO, Phase.CARRY, Phase.EXTRA_TO}
WITH_CELL = {Phase.TILES, Phase.ACTION, Phase.RELOCATE_TO, Phase.CARRY, Phase.EXTRA_TO}


def view(state: State, seat: int | None) -> AvenueView:
    over = state.phase == Phase.OVER
    owner = gardener_seats(state)
    seats = []
    for s in range(state.players):
        entry = SeatView(seat=s, gardeners=list(state.gardeners[s]), project_count=0)
        entry.project_count = len(state.projects[s])
        if over or s == seat:
            entry.projects = list(state.projects[s])
            entry.projects_met = [cell != EMPTY for cell in projects_met(state, s)]
        seats.append(entry)
    return AvenueView(
        players=state.players,
        round=state.round,
        rounds=rounds(state.players),
        phase=state.phase.name.lower(),
        to_act=to_act(state),
        turn=state.turn,
        order=list(state.order),
        next_order=list(state.next_order),
        park=list(state.park),
        tiles=[
            TileView(id=t, animal=ANIMALS[TILE_ANIMAL[t]], cell=c, owner=owner[c])
            for t, c in enumerate(state.tiles)
        ],
        row=list(state.row),
        next_row=list(state.next_row),
        deck_size=len(state.deck),
        project_deck_size=len(state.project_deck),
        seats=seats,
        chosen_slot=state.slot if state.phase in AFTER_CHOICE else EMPTY,
        chosen_card=state.card if state.phase in AFTER_CHOICE else EMPTY,
        cell=state.cell if state.phase in WITH_CELL else EMPTY,
        dest=state.dest if state.phase == Phase.CARRY else EMPTY,
        picked_tile=state.pick if state.phase == Phase.EXTRA_TO else EMPTY,
        tiles_moved=state.count if state.phase in (Phase.TILES, Phase.CARRY) else 0,
        over=over,
    )
