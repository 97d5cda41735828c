"""Building and driving Tree Lined Avenue positions in tests."""

from __future__ import annotations

from typing import Any

import msgspec

from service.engine import Move, play, start
from service.games.avenue import GAME
from service.games.avenue.rules import open_cells
from service.games.avenue.state import (
    ChooseCard,
    Phase,
    PlaceCard,
    SkipAction,
    SkipGardener,
    State,
)


def new(players: int = 3, seed: str = "avenue", random_order: bool = False) -> State:
    state: State = start(GAME, players, {"randomOrder": random_order}, seed).state
    return state


def seat_of(state: State) -> int:
    return GAME.to_act(state)[0]


def act(state: State, move: Move, seat: int | None = None) -> State:
    seat = seat_of(state) if seat is None else seat
    result: Any = play(GAME, state, seat, msgspec.to_builtins(move)).state
    return result  # type: ignore[no-any-return]


def labels(state: State, move: Move) -> list[str]:
    return [s.label for s in play(GAME, state, seat_of(state), msgspec.to_builtins(move)).steps]


def take_turn(state: State, slot: int = 0, cell: int | None = None) -> State:
    """Skip the gardener, place the card of `slot` (first open cell unless named), skip the
    action: a plain turn, whatever the engine forces on the way."""
    if state.phase == Phase.GARDENER:
        state = act(state, SkipGardener())
    if state.phase == Phase.CARD:
        state = act(state, ChooseCard(slot=slot))
    if state.phase == Phase.CELL:
        state = act(state, PlaceCard(cell=open_cells(state)[0] if cell is None else cell))
    if state.phase == Phase.ACTION:
        state = act(state, SkipAction())
    return state


def to_round(state: State, round_: int) -> State:
    while state.round < round_:
        state = take_turn(state)
    return state


def card_where(predicate: Any) -> int:
    from service.games.avenue.cards import CARDS

    return next(c.id for c in CARDS if predicate(c))
