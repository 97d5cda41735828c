"""Hand-built Treelings positions for the scripted tests, written with colour names."""

from __future__ import annotations

from service.engine import Rng
from service.games.treelings.cards import COLOUR_INDEX, COLOURS, FESTIVAL
from service.games.treelings.state import State, Tree

ALL_SIX = [(name, 1) for name in COLOURS]


def table(
    districts: list[list[tuple[str, int]]],
    market: dict[str, int] | None = None,
    pile: list[str] | None = None,
    seat: int = 0,
    start_seat: int = 0,
    festival_revealed: bool = False,
    over: bool = False,
) -> State:
    """`pile` lists the draw pile bottom first; "festival" is the festival card."""
    counts = [0] * len(COLOURS)
    for name, n in (market or {}).items():
        counts[COLOUR_INDEX[name]] = n
    return State(
        rng=Rng.from_seed("table"),
        players=len(districts),
        start_seat=start_seat,
        seat=seat,
        pile=[FESTIVAL if c == "festival" else COLOUR_INDEX[c] for c in pile or []],
        market=counts,
        districts=[[Tree(COLOUR_INDEX[c], h) for c, h in trees] for trees in districts],
        festival_revealed=festival_revealed,
        over=over,
    )


def trees(state: State, seat: int) -> list[tuple[str, int]]:
    return [(COLOURS[t.colour], t.height) for t in state.districts[seat]]


def market(state: State) -> dict[str, int]:
    return {COLOURS[c]: n for c, n in enumerate(state.market) if n}
