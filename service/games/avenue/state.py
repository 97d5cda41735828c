"""The Tree Lined Avenue's state, moves and options (all msgspec Structs).

Cells are numbered row * 6 + column (0-based); cards, tiles and projects are small ints
(their index in the data file, tiles as in cards.TILE_ANIMAL).
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

import msgspec

from service.engine import Move, Options, Rng, closed_set
from service.games.avenue.cards import ANIMALS


class Phase(IntEnum):
    """The decision the seat at `turn` owes now (AV-5, broken into small decisions)."""

    GARDENER = 0  # place a gardener or skip
    TILES = 1  # take up to 2 unowned tiles from the gardener's row and column
    CARD = 2  # choose a card of the current row
    CELL = 3  # place the chosen card
    ACTION = 4  # resolve the card's action or skip it
    RELOCATE_TO = 5  # where the relocated gardener goes
    CARRY = 6  # which of its tiles it brings (up to 2)
    EXTRA_TO = 7  # onto which gardener's card the extra tile goes
    OVER = 8


if TYPE_CHECKING:
    Animal = str
    PhaseName = str
else:
    Animal = closed_set("Animal", ANIMALS)
    PhaseName = closed_set("Phase", (p.name.lower() for p in Phase))


class State(msgspec.Struct, array_like=True):
    players: int
    rng: Rng
    park: list[int]  # per cell: card id, or -1 while empty
    tiles: list[int]  # per tile id: the cell it lies on
    gardeners: list[list[int]]  # per seat, per gardener: its cell, or -1 if not placed
    deck: list[int]  # face-down area cards, drawn from the end
    row: list[int]  # this round's cards by slot (sorted by value), -1 once taken
    next_row: list[int]  # next round's cards by slot
    order: list[int]  # per turn-order marker: the seat whose action token stands there
    next_order: list[int]  # per slot of `row`: the seat whose token took it, -1 if none yet
    projects: list[list[int]]  # per seat: secret project card ids
    project_deck: list[int]  # face-down project cards, drawn from the end
    round: int = 1
    turn: int = 0  # index into `order`
    phase: Phase = Phase.GARDENER
    slot: int = -1  # the chosen card's slot this turn
    card: int = -1  # the chosen card this turn
    cell: int = -1  # the gardener just placed, the card just placed, or the relocated gardener's
    dest: int = -1  # relocation target
    count: int = 0  # tiles taken or carried so far in this step
    pick: int = -1  # tile chosen by the extra-tile action


class AvenueOptions(Options):
    # The rulebook deals the turn-order markers at random (setup step 9). With
    # randomOrder=false they go clockwise from startSeat instead (ALL-1), for scripted games.
    random_order: bool = True


class PlaceGardener(Move, frozen=True):
    cell: int


class SkipGardener(Move, frozen=True):
    pass


class TakeTile(Move, frozen=True):
    cell: int
    animal: Animal


class StopTaking(Move, frozen=True):
    pass


class ChooseCard(Move, frozen=True):
    slot: int


class PlaceCard(Move, frozen=True):
    cell: int


class SkipAction(Move, frozen=True):
    pass


class RelocateGardener(Move, frozen=True):
    cell: int


class RelocateTo(Move, frozen=True):
    cell: int


class CarryTile(Move, frozen=True):
    animal: Animal


class StopCarrying(Move, frozen=True):
    pass


class DrawProject(Move, frozen=True):
    pass


class Redraw(Move, frozen=True):
    slots: tuple[int, ...]


class ExtraTile(Move, frozen=True):
    cell: int
    animal: Animal


class ExtraTileTo(Move, frozen=True):
    cell: int


AvenueMove = (
    PlaceGardener
    | SkipGardener
    | TakeTile
    | StopTaking
    | ChooseCard
    | PlaceCard
    | SkipAction
    | RelocateGardener
    | RelocateTo
    | CarryTile
    | StopCarrying
    | DrawProject
    | Redraw
    | ExtraTile
    | ExtraTileTo
)
