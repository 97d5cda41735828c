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


def take_turn(state: State, slot: int | None = None, cell: int | None = None) -> State:
    """Skip the gardener, place the card of `slot` (the first left unless named) on the first
    open cell (unless named), skip the action: whatever the engine forces on the way."""
    if state.phase == Phase.GARDENER:
        state = act(state, SkipGardener())
    if state.phase == Phase.CARD:
        if slot is None:
            slot = next(s for s, card in enumerate(state.row) if card != -1)
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


def put_in_row(state: State, slot: int, card: int) -> None:
    """Swap `card` (wherever it waits: deck or a row) into this round's row at `slot`."""
    for pile in (state.deck, state.next_row, state.row):
        if card in pile:
            i = pile.index(card)
            pile[i], state.row[slot] = state.row[slot], card
            return
    raise AssertionError(f"card {card} is not waiting to be drawn")


def round_two(players: int = 3, seed: str = "avenue") -> State:
    """Setup's park, but in round 2: the gardener step is open."""
    state = new(players, seed)
    state.round = 2
    state.phase = Phase.GARDENER
    return state
