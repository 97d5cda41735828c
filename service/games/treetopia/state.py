"""The Treetopia table as msgspec Structs, and the moves (decisions) of a turn.

Cards are ids 0..47 into cards.CARDS. The draw pile's top card is its last element. The
sanctuary is a frame of 9 columns by 2H-1 rows with the first tree at its centre, so that any
5-by-H bounding box holding the first tree fits inside it (RULINGS TT-5).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Literal

import msgspec

from service.engine import Move, Options, Rng

Token = Literal["whirlwind", "eye", "extraTurn"]
TOKENS: tuple[Token, ...] = ("whirlwind", "eye", "extraTurn")
WHIRLWIND, EYE, EXTRA_TURN = range(3)
HAND = 3
POOL = 2
COLUMNS = 5


def sanctuary_rows(players: int) -> int:
    """3 lines of 5 for 2 players, 4 lines of 5 for 3 or 4 players."""
    return 3 if players == 2 else 4


class Phase(IntEnum):
    START = 0  # A (whirlwind, draw) or B (skip and activate)
    DRAW = 1  # after a whirlwind: the draw of an A turn
    EYE = 2  # keep one of the cards the Eye drew
    KEEP = 3  # four cards: put one in the pool or choose one to plant
    CELL = 4  # where the chosen tree goes
    REWARD = 5  # seats in `rewards` may turn a token active (TT-6)
    END = 6  # use the Extra Turn token or end the turn
    OVER = 7


class Planted(msgspec.Struct, array_like=True):
    card: int
    seat: int
    row: int
    col: int
    hope: int
    group: int
    symbiosis: int

    @property
    def points(self) -> int:
        return self.hope + self.group + self.symbiosis


class State(msgspec.Struct, array_like=True):
    players: int
    rng: Rng
    symbiosis: int
    pile: list[int]
    pool: list[int]
    discard: list[int] = []
    hands: list[list[int]] = []
    tokens: list[list[bool]] = []
    sanctuary: list[Planted] = []
    active: int = 0
    phase: Phase = Phase.START
    eye: list[int] = []
    planting: int = -1
    rewards: list[int] = []
    turns: int = 0


class TreetopiaOptions(Options):
    pass


# A turn, type A: the draw.
class DrawFromPile(Move, frozen=True):
    pass


class TakeFromPool(Move, frozen=True):
    card: int


class UseEye(Move, frozen=True):
    """Draw up to 3 from the pile instead of 1 (TT-4)."""


class KeepEyeCard(Move, frozen=True):
    card: int


class UseWhirlwind(Move, frozen=True):
    """At the start of an A turn: these hand cards go to the discard pile, as many are drawn."""

    cards: tuple[int, ...]


# A turn, type A: with four cards in front of the seat.
class PutInPool(Move, frozen=True):
    card: int


class Plant(Move, frozen=True):
    card: int


class PlantAt(Move, frozen=True):
    row: int
    col: int


# B turn, rewards, end of turn.
class SkipTurn(Move, frozen=True):
    """B: skip the turn to turn this inactive token active (TT-3)."""

    token: Token


class ActivateToken(Move, frozen=True):
    """A reward when another seat completes a group of four (TT-6)."""

    token: Token


class DeclineToken(Move, frozen=True):
    pass


class UseExtraTurn(Move, frozen=True):
    pass


class EndTurn(Move, frozen=True):
    pass


TreetopiaMove = (
    DrawFromPile
    | TakeFromPool
    | UseEye
    | KeepEyeCard
    | UseWhirlwind
    | PutInPool
    | Plant
    | PlantAt
    | SkipTurn
    | ActivateToken
    | DeclineToken
    | UseExtraTurn
    | EndTurn
)
