"""The card data (castles, glades, land deck, grid sizes), loaded once from treeline.json.

The rulebook prints no castle values (RULINGS TL-2), so they live in the data file where a
licensee can replace them without touching code. Validated at import.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

GLADE_IDS = (
    "nextTo",
    "diagonal",
    "mostEnergizedAround",
    "pairsAround",
    "pairsInRow",
    "pairsInColumn",
    "pairsOnEdge",
    "largestGroup",
    "lonely",
    "stationedEnergized",
    "mostEnergizedInner",
    "energizedByTown",
)


class CastleCard(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    letter: str
    points: int


class GladeCard(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    id: str
    name: str
    text: str


class CardData(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    land_values: dict[int, int]
    removed_per_value_below_four_players: int
    grids: dict[int, tuple[int, int]]
    tokens_per_seat: int
    castles: tuple[CastleCard, ...]
    glades: tuple[GladeCard, ...]


def _validate(data: CardData) -> CardData:
    letters = [c.letter for c in data.castles]
    if letters != [chr(ord("A") + i) for i in range(16)]:
        raise ValueError("treeline.json: castles must be the 16 letters A..P in order")
    if any(c.points < 0 for c in data.castles):
        raise ValueError("treeline.json: castle points must not be negative")
    if tuple(g.id for g in data.glades) != GLADE_IDS:
        raise ValueError(f"treeline.json: glades must be exactly {GLADE_IDS} in order")
    if sorted(data.land_values) != [1, 2, 3]:
        raise ValueError("treeline.json: land values are 1, 2 and 3")
    for players, (rows, cols) in data.grids.items():
        deck = sum(data.land_values.values())
        if players < 4:
            deck -= 3 * data.removed_per_value_below_four_players
        if rows * cols - 2 > deck or rows + cols > len(data.castles):
            raise ValueError(f"treeline.json: grid {rows}x{cols} does not fit the components")
    if sorted(data.grids) != [2, 3, 4]:
        raise ValueError("treeline.json: grids for 2, 3 and 4 players")
    return data


DATA = _validate(
    msgspec.json.decode((Path(__file__).parent / "treeline.json").read_bytes(), type=CardData)
)
CASTLES = DATA.castles
GLADES = DATA.glades
TOKENS_PER_SEAT = DATA.tokens_per_seat


def letter(tile: int) -> str:
    return CASTLES[tile].letter
