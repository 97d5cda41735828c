"""The table as a seat sees it (RULINGS ALL-4): all of it but the draw pile's order."""

from __future__ import annotations

from typing import Literal

from service.engine import Wire
from service.games.treelings.cards import CARDS, COLOURS, FESTIVAL
from service.games.treelings.rules import turns_left
from service.games.treelings.state import Colour, State, Tree


# Frozen so that TREE_VIEWS can be shared by every view; msgspec allows a frozen Struct under
# a mutable base, mypy's dataclass rule does not know that.
class TreeView(Wire, frozen=True):  # type: ignore[misc]
    colour: Colour
    height: int


# Every tree there can be, by colour index and height (a colour has `count` cards), shared by
# all views: a view lists every tree of the table.
TREE_VIEWS: tuple[tuple[TreeView, ...], ...] = tuple(
    tuple(TreeView(colour=c.name, height=h) for h in range(c.count + 1)) for c in CARDS.colours
)


class MarketPile(Wire):
    colour: Colour
    count: int


class District(Wire):
    seat: int
    trees: list[TreeView]  # left to right


class TreelingsView(Wire):
    players: int
    viewer: int | None
    start_seat: int
    turn_seat: int
    to_act: list[int]
    phase: Literal["take", "place", "over"]
    to_place: list[TreeView]  # taken colours new to the turn seat's district
    market: list[MarketPile]  # the colours present, in colour order
    draw_pile_count: int  # guild cards left in the draw pile
    cards_above_festival: int | None  # public by TG-1: the festival lies under 20 cards
    festival_revealed: bool
    festival_seat: int | None  # whose market filling revealed it (None: at setup or not yet)
    final_round: bool
    turns_left: int | None  # in the final round, turns still to play, this one included
    districts: list[District]


def view(state: State, seat: int | None) -> TreelingsView:
    above = None
    if FESTIVAL in state.pile:
        above = len(state.pile) - 1 - CARDS.festival_depth
    phase: Literal["take", "place", "over"] = (
        "over" if state.over else "place" if state.to_place else "take"
    )
    return TreelingsView(
        players=state.players,
        viewer=seat,
        start_seat=state.start_seat,
        turn_seat=state.seat,
        to_act=[] if state.over else [state.seat],
        phase=phase,
        to_place=[_tree(t) for t in state.to_place],
        market=[MarketPile(colour=COLOURS[c], count=n) for c, n in enumerate(state.market) if n],
        draw_pile_count=sum(1 for card in state.pile if card != FESTIVAL),
        cards_above_festival=above,
        festival_revealed=state.festival_revealed,
        festival_seat=state.festival_seat if state.festival_seat >= 0 else None,
        final_round=state.festival_revealed and not state.over,
        turns_left=turns_left(state),
        districts=[
            District(seat=s, trees=[_tree(t) for t in trees])
            for s, trees in enumerate(state.districts)
        ],
    )


def _tree(tree: Tree) -> TreeView:
    return TREE_VIEWS[tree.colour][tree.height]
