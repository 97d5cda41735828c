"""The decisions of a Treeline turn, one small Struct each (RULINGS TL-3..TL-9, TL-12).

Cells are named by 0-based row and column. None of these ever names a glade's identity.
"""

from __future__ import annotations

from typing import Literal

from service.engine import Move

Toward = Literal["right", "down"]


class StrategicFlip(Move, frozen=True):
    """Strategic Start (TL-12): flip this Town card and fill it from supply."""

    row: int
    col: int


class Reforest(Move, frozen=True):
    """Flip the Town card at (row, col) and its neighbour to the right or below (TL-3)."""

    row: int
    col: int
    toward: Toward


class DeployCard(Move, frozen=True):
    """Choose the card flipped this turn to deploy to (TL-4, TL-5)."""

    row: int
    col: int


class DeployFromSupply(Move, frozen=True):
    """Fill the next empty space with a Normal token from supply."""


class DeployFromCard(Move, frozen=True):
    """Fill the next empty space with one of your tokens moved from another Forest card."""

    row: int
    col: int
    energized: bool


class StationToken(Move, frozen=True):
    """Station one of your tokens on the castle being claimed (TL-8)."""

    row: int
    col: int
    energized: bool


class StationFromSupply(Move, frozen=True):
    """Station a token from supply: only once you have no token left in the line (TL-8)."""


class Energize(Move, frozen=True):
    """Flip one of your Normal tokens in the claimed line to Energized (TL-9)."""

    row: int
    col: int


TreelineMove = (
    StrategicFlip
    | Reforest
    | DeployCard
    | DeployFromSupply
    | DeployFromCard
    | StationToken
    | StationFromSupply
    | Energize
)
