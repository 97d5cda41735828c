"""What a seat sees (RULINGS ALL-4, TT-2), the live scores, the labels and the catalog.

Everything is public except the draw pile's order: a view shows its size and the type on the
back of its top card, and the cards the Eye drew are shown only to the seat choosing among them
until the choice is made (then they are all face up: one in hand, the rest discarded).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from service.engine import Cell, ScoreEntry, ScoreItem, Scores, Term, Wire, closed_set
from service.engine.texts import Said
from service.games.treetopia import sanctuary
from service.games.treetopia.cards import CARDS, DATA, ENVIRONMENTS, SYMBIOSES, TYPES, describe
from service.games.treetopia.rules import to_act
from service.games.treetopia.state import (
    COLUMNS,
    TOKENS,
    ActivateToken,
    DeclineToken,
    DrawFromPile,
    EndTurn,
    KeepEyeCard,
    Phase,
    Plant,
    PlantAt,
    Planted,
    PutInPool,
    SkipTurn,
    State,
    TakeFromPool,
    TreetopiaMove,
    UseExtraTurn,
    UseEye,
    UseWhirlwind,
    sanctuary_rows,
)
from service.games.treetopia.texts import TEXTS

TOKEN_NAMES = {"whirlwind": "Whirlwind", "eye": "Eye", "extraTurn": "Extra Turn"}


if TYPE_CHECKING:
    PhaseName = str
    TypeId = str
else:
    PhaseName = closed_set("Phase", (p.name.lower() for p in Phase))
    TypeId = closed_set("TreeType", (t.id for t in TYPES))


class Tokens(Wire):
    whirlwind: bool
    eye: bool
    extra_turn: bool


class SeatView(Wire):
    seat: int
    hand: list[int]
    tokens: Tokens
    points: int


class TreeView(Wire):
    card: int
    seat: int
    row: int
    col: int
    hope: int
    group_bonus: int
    symbiosis_bonus: int
    points: int


class TreetopiaView(Wire):
    players: int
    viewer: int | None
    to_act: list[int]
    active_seat: int
    phase: PhaseName
    symbiosis: list[TypeId]
    draw_pile: int
    draw_pile_top_type: TypeId | None
    pool: list[int]
    discard: list[int]
    seats: list[SeatView]
    sanctuary: list[TreeView]
    sanctuary_rows: int
    sanctuary_columns: int
    eye_cards: list[int]
    eye_count: int
    planting: int | None
    rewards_pending: list[int]
    over: bool


def view(state: State, seat: int | None) -> TreetopiaView:
    points = _points(state)
    eye_visible = seat == state.active and state.phase == Phase.EYE
    return TreetopiaView(
        players=state.players,
        viewer=seat,
        to_act=to_act(state),
        active_seat=state.active,
        phase=state.phase.name.lower(),
        symbiosis=[TYPES[t].id for t in SYMBIOSES[state.symbiosis]],
        draw_pile=len(state.pile),
        draw_pile_top_type=TYPES[CARDS[state.pile[-1]].type].id if state.pile else None,
        pool=list(state.pool),
        discard=list(state.discard),
        seats=[
            SeatView(
                seat=s,
                hand=list(state.hands[s]),
                tokens=Tokens(whirlwind=t[0], eye=t[1], extra_turn=t[2]),
                points=points[s],
            )
            for s, t in enumerate(state.tokens)
        ],
        sanctuary=[
            TreeView(
                card=p.card,
                seat=p.seat,
                row=p.row,
                col=p.col,
                hope=p.hope,
                group_bonus=p.group,
                symbiosis_bonus=p.symbiosis,
                points=p.points,
            )
            for p in state.sanctuary
        ],
        sanctuary_rows=sanctuary_rows(state.players),
        sanctuary_columns=COLUMNS,
        eye_cards=list(state.eye) if eye_visible else [],
        eye_count=len(state.eye),
        planting=state.planting if state.planting >= 0 else None,
        rewards_pending=list(state.rewards),
        over=state.phase == Phase.OVER,
    )


def _points(state: State) -> list[int]:
    points = [0] * state.players
    for tree in state.sanctuary:
        points[tree.seat] += tree.points
    return points


def scores(state: State) -> Scores:
    breakdowns: list[list[ScoreItem]] = [[] for _ in range(state.players)]
    for tree in state.sanctuary:
        breakdowns[tree.seat].append(_item(tree))
    entries = [
        ScoreEntry(seat=seat, points=sum(i.points for i in items), breakdown=items, tiebreak=[])
        for seat, items in enumerate(breakdowns)
    ]
    over = state.phase == Phase.OVER
    best = max(e.points for e in entries)
    # TT-9: no tie-breaker; every tied seat wins.
    winners = [e.seat for e in entries if e.points == best] if over else []
    return Scores(final=over, winners=winners, entries=entries)


def _item(tree: Planted) -> ScoreItem:
    return ScoreItem(
        source="tree",
        points=tree.points,
        detail=TEXTS.english(
            "score.tree",
            card=CARDS[tree.card].name,
            row=tree.row,
            col=tree.col,
            hope=tree.hope,
            group=tree.group,
            symbiosis=tree.symbiosis,
        ),
        id=str(tree.card),
        seat=tree.seat,
        cells=[Cell(row=tree.row, col=tree.col)],
        terms=[
            Term(name="hope", value=tree.hope),
            Term(name="group", value=tree.group),
            Term(name="symbiosis", value=tree.symbiosis),
        ],
    )


def label(state: State, seat: int, move: TreetopiaMove) -> Said:
    """The label's catalog key and values (texts.py: said in English or as a message)."""
    key, words = _DOES[type(move)](move)
    return key, {"seat": seat, **words}


# What each kind of move does, in the words of its label: one look-up, not a chain of
# isinstance checks (labels are made for every legal move of every answer).
_DOES: dict[type[TreetopiaMove], Callable[[Any], tuple[str, dict[str, Any]]]] = {
    DrawFromPile: lambda _: ("label.drawFromPile", {}),
    TakeFromPool: lambda m: ("label.takeFromPool", {"card": CARDS[m.card].name}),
    UseEye: lambda _: ("label.useEye", {}),
    KeepEyeCard: lambda m: ("label.keepEyeCard", {"card": CARDS[m.card].name}),
    UseWhirlwind: lambda m: ("label.useWhirlwind", {"cards": [CARDS[c].name for c in m.cards]}),
    PutInPool: lambda m: ("label.putInPool", {"card": CARDS[m.card].name}),
    Plant: lambda m: ("label.plant", {"card": CARDS[m.card].name}),
    PlantAt: lambda m: ("label.plantAt", {"row": m.row, "col": m.col}),
    SkipTurn: lambda m: ("label.skipTurn", {"token": TOKEN_NAMES[m.token]}),
    ActivateToken: lambda m: ("label.activateToken", {"token": TOKEN_NAMES[m.token]}),
    DeclineToken: lambda _: ("label.declineToken", {}),
    UseExtraTurn: lambda _: ("label.useExtraTurn", {}),
    EndTurn: lambda _: ("label.endTurn", {}),
}


def catalog() -> dict[str, Any]:
    return {
        "types": msgspec.to_builtins(TYPES),
        "environments": msgspec.to_builtins(ENVIRONMENTS),
        "symbioses": msgspec.to_builtins(DATA.symbioses),
        "tokens": [{"id": t, "name": TOKEN_NAMES[t]} for t in TOKENS],
        "sanctuary": {"columns": COLUMNS, "rows": {"2": 3, "3": 4, "4": 4}},
        "cells": {str(n): sanctuary.cells(n) for n in (2, 3, 4)},
        "cards": [
            {**msgspec.to_builtins(c), "name": CARDS[c.id].name, "needText": describe(c.need)}
            for c in DATA.cards
        ],
    }
