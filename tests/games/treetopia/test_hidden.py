"""Hidden information (RULINGS ALL-4, TT-2): only the draw pile's order (and the Eye's cards
while their drawer chooses) is secret; the top card's type is public (card backs show it)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgspec

from service.engine import IllegalMove, play, start
from service.engine.play import copy_state
from service.games.treetopia import GAME
from service.games.treetopia.cards import CARDS
from service.games.treetopia.state import Phase, State


def positions(players: int, seed: str) -> Iterator[State]:
    """Every position of a random game."""
    chooser = random.Random(seed)
    state: State = start(GAME, players, None, seed).state
    while not GAME.is_over(state):
        yield state
        seat = GAME.to_act(state)[0]
        move = chooser.choice(GAME.legal_moves(state, seat))
        state = play(GAME, state, seat, msgspec.to_builtins(move)).state


def reshuffled(state: State, seed: int) -> State:
    """The same table with the pile reordered: the top card keeps its type, the rng changes."""
    twin: State = copy_state(GAME, state)
    twin.rng.state ^= 0x5DEECE66D + seed
    if len(twin.pile) < 2:
        return twin
    top = twin.pile.pop()
    random.Random(seed).shuffle(twin.pile)
    same = [i for i, c in enumerate(twin.pile) if CARDS[c].type == CARDS[top].type]
    if same:
        i = random.Random(seed).choice(same)
        twin.pile[i], top = top, twin.pile[i]
    twin.pile.append(top)
    return twin


def seen(state: State, seat: int | None) -> bytes:
    return msgspec.json.encode(GAME.view(state, seat))


def offered(state: State, seat: int) -> list[tuple[Any, str]]:
    return [
        (msgspec.to_builtins(m), GAME.label(state, seat, m)) for m in GAME.legal_moves(state, seat)
    ]


def rejection(state: State, seat: int, move: dict[str, Any]) -> tuple[str, str]:
    try:
        play(GAME, state, seat, move)
    except IllegalMove as exc:
        return exc.code, exc.message
    return "", ""


def probes(state: State) -> list[dict[str, Any]]:
    """Illegal moves that name cards from the pile (and a malformed one)."""
    cards = state.pile[-3:]
    return [
        *({"type": "takeFromPool", "card": c} for c in cards),
        *({"type": "plant", "card": c} for c in cards),
        *({"type": "keepEyeCard", "card": c} for c in cards),
        {"type": "plantAt", "row": 99, "col": 99},
        {"type": "useWhirlwind", "cards": "x"},
    ]


def test_pile_order_never_shows_in_views_moves_labels_or_errors() -> None:
    checked = 0
    for players in (2, 3, 4):
        for n, state in enumerate(positions(players, f"hidden-{players}")):
            twin = reshuffled(state, n)
            if twin.pile != state.pile:
                checked += 1
            for viewer in [None, *range(players)]:
                assert seen(state, viewer) == seen(twin, viewer)
            for seat in range(players):
                assert offered(state, seat) == offered(twin, seat)
                for probe in probes(state):
                    assert rejection(state, seat, probe) == rejection(twin, seat, probe)
    assert checked > 500


def test_eye_cards_are_seen_only_by_the_seat_choosing_among_them() -> None:
    for state in positions(3, "eye"):
        if state.phase == Phase.EYE and len(state.pile) >= 3:
            break
    else:
        raise AssertionError("no Eye in this game")
    twin: State = copy_state(GAME, state)
    twin.eye, twin.pile[: len(twin.eye)] = twin.pile[: len(twin.eye)], twin.eye
    drawer = state.active
    for viewer in [None, *range(3)]:
        if viewer != drawer:
            assert seen(state, viewer) == seen(twin, viewer)
    assert seen(state, drawer) != seen(twin, drawer)
    assert GAME.view(state, drawer).eye_cards == state.eye
    assert GAME.view(state, None).eye_count == len(state.eye)


def test_views_show_the_top_card_type_but_never_the_rng() -> None:
    for n, state in enumerate(positions(4, "rng")):
        for viewer in [None, 0, 1, 2, 3]:
            view = GAME.view(state, viewer)
            text = seen(state, viewer)
            assert b"rng" not in text.lower() and str(state.rng.state).encode() not in text
            if state.pile:
                assert (
                    view.draw_pile_top_type
                    == ["pearl", "mushroom", "palm", "spiral"][CARDS[state.pile[-1]].type]
                )
            assert view.draw_pile == len(state.pile)
            assert view.seats[(viewer or 0)].hand == state.hands[viewer or 0]
        if n > 200:
            break


def test_hands_pool_and_discard_are_public_tt2() -> None:
    for n, state in enumerate(positions(3, "public")):
        spectator = GAME.view(state, None)
        assert [s.hand for s in spectator.seats] == state.hands
        assert spectator.pool == state.pool and spectator.discard == state.discard
        if n > 100:
            break
