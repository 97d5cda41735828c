"""The Treelings table and moves as msgspec Structs (cards are colour indexes, see cards.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import msgspec

from service.engine import Move, Options, Rng, closed_set
from service.games.treelings.cards import COLOURS

Side = Literal["left", "right"]
if TYPE_CHECKING:
    Colour = str
else:
    Colour = closed_set("Colour", COLOURS)


class Tree(msgspec.Struct, array_like=True):
    colour: int
    height: int


class State(msgspec.Struct, array_like=True):
    rng: Rng
    players: int
    start_seat: int = 0
    seat: int = 0  # whose turn it is
    pile: list[int] = msgspec.field(default_factory=list)  # bottom first, top last
    market: list[int] = msgspec.field(default_factory=list)  # cards per colour
    districts: list[list[Tree]] = msgspec.field(default_factory=list)  # trees left to right
    to_place: list[Tree] = msgspec.field(default_factory=list)  # taken, new to the district
    festival_revealed: bool = False
    festival_seat: int = -1  # whose market filling revealed it; -1 at setup or unrevealed
    over: bool = False


class TreelingsOptions(Options):
    pass


class TakeColour(Move, frozen=True):
    """Take every card of one colour from the market (TG-4)."""

    colour: Colour


class TakeSingletons(Move, frozen=True):
    """Take one card of every colour present exactly once in the market (TG-4)."""


class Place(Move, frozen=True):
    """Start the tree of a taken new colour at one end of the district (TG-5)."""

    colour: Colour
    side: Side


TreelingsMove = TakeColour | TakeSingletons | Place
