"""The guild cards, loaded from cards.json and checked against RULINGS TG-1 at import.

Guild cards of one colour are identical, so the state stores a card as its colour index
(0..5, the order of cards.json) and the festival card as FESTIVAL.
"""

from __future__ import annotations

from pathlib import Path

import msgspec


class Colour(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    name: str
    count: int


class CardData(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    colours: list[Colour]
    festival_depth: int  # guild cards lying below the festival card (TG-1)
    market_size: int
    deal_per_seat: int


def load(path: Path) -> CardData:
    data = msgspec.json.decode(path.read_bytes(), type=CardData)
    names = [c.name for c in data.colours]
    if len(names) != 6 or len(set(names)) != 6:
        raise ValueError(f"{path}: TG-1 needs 6 distinct colours, got {names}")
    if any(c.count != 18 for c in data.colours):
        raise ValueError(f"{path}: TG-1 needs 18 cards of every colour")
    if data.festival_depth != 20:
        raise ValueError(f"{path}: TG-1 puts the festival card under exactly 20 cards")
    if data.market_size != 5 or data.deal_per_seat != 3:
        raise ValueError(f"{path}: the rulebook fills the market to 5 and deals 3 per seat")
    return data


CARDS = load(Path(__file__).with_name("cards.json"))
COLOURS: tuple[str, ...] = tuple(c.name for c in CARDS.colours)
COLOUR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLOURS)}
FESTIVAL = len(COLOURS)
GUILD_CARDS = sum(c.count for c in CARDS.colours)
