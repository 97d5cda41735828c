"""The turn: A or B, the enchantment tokens, the pool and the draw pile (RULINGS TT-3, TT-4,
TT-8), on hand-built positions played through the engine."""

from __future__ import annotations

from typing import Any

import msgspec

from service.engine import play
from service.games.treetopia import GAME
from service.games.treetopia.state import Phase, State
from tests.games.treetopia.tables import table

HANDS = [[0, 1, 2], [3, 4, 5]]


def moves(state: State, seat: int = 0) -> list[dict[str, Any]]:
    return [msgspec.to_builtins(m) for m in GAME.legal_moves(state, seat)]


def kinds(state: State, seat: int = 0) -> set[str]:
    return {m["type"] for m in moves(state, seat)}


def step(state: State, seat: int, move: dict[str, Any]) -> State:
    after: State = play(GAME, state, seat, move).state
    return after


def test_b_turn_activates_one_inactive_token_and_passes_tt3() -> None:
    state = table(hands=HANDS, pool=[6, 7])
    assert {"type": "skipTurn", "token": "eye"} in moves(state)
    after = step(state, 0, {"type": "skipTurn", "token": "eye"})
    assert after.tokens[0] == [True, True, False]
    assert after.active == 1 and after.phase == Phase.START
    assert after.hands == state.hands and after.pool == state.pool


def test_b_turn_is_not_offered_with_all_tokens_active_tt3() -> None:
    state = table(hands=HANDS, pool=[6, 7], tokens=[[True] * 3, [True] * 3])
    assert "skipTurn" not in kinds(state)


def test_no_token_power_on_a_b_turn_not_even_the_extra_turn_tt3() -> None:
    state = table(hands=HANDS, pool=[6, 7], tokens=[[False, False, True], [True] * 3])
    after = step(state, 0, {"type": "skipTurn", "token": "eye"})
    assert after.active == 1 and after.phase == Phase.START
    assert after.tokens[0] == [False, True, True]


def test_a_turn_draws_then_puts_one_of_four_in_the_pool_tt3() -> None:
    state = table(hands=HANDS, pool=[6, 7], pile=[47])
    after = step(state, 0, {"type": "drawFromPile"})
    assert after.hands[0] == [0, 1, 2, 47] and after.phase == Phase.KEEP
    assert {m["card"] for m in moves(after) if m["type"] == "putInPool"} == {0, 1, 2, 47}
    done = step(after, 0, {"type": "putInPool", "card": 1})
    assert done.hands[0] == [0, 2, 47] and done.pool == [6, 7, 1] and done.active == 1


def test_taking_from_the_pool_offers_every_pool_card_tt3() -> None:
    state = table(hands=HANDS, pool=[6, 7, 8])
    takes = [m["card"] for m in moves(state) if m["type"] == "takeFromPool"]
    assert takes == [6, 7, 8]
    after = step(state, 0, {"type": "takeFromPool", "card": 7})
    assert after.hands[0] == [0, 1, 2, 7] and after.pool == [6, 8]


def test_whirlwind_discards_and_redraws_at_the_start_of_an_a_turn_tt4() -> None:
    state = table(hands=HANDS, pool=[6, 7], pile=[45, 46, 47])
    wind = [list(m["cards"]) for m in moves(state) if m["type"] == "useWhirlwind"]
    assert sorted(wind) == sorted([[0], [1], [2], [0, 1], [0, 2], [1, 2], [0, 1, 2]])
    after = step(state, 0, {"type": "useWhirlwind", "cards": [0, 2]})
    assert after.hands[0] == [1, 47, 46] and after.discard == [0, 2]
    assert after.tokens[0][0] is False and after.phase == Phase.DRAW
    assert kinds(after) == {"drawFromPile", "takeFromPool"}  # an A turn now: no B


def test_whirlwind_is_not_offered_when_inactive_tt4() -> None:
    state = table(hands=HANDS, pool=[6, 7], tokens=[[False, True, False], [True] * 3])
    assert "useWhirlwind" not in kinds(state)
    assert "useEye" in kinds(state)


def test_eye_draws_three_keeps_one_and_discards_the_rest_tt4() -> None:
    state = table(hands=HANDS, pool=[6, 7], pile=[45, 46, 47], tokens=[[False, True, False]] * 2)
    after = step(state, 0, {"type": "useEye"})
    assert after.eye == [47, 46, 45] and after.phase == Phase.EYE and not after.tokens[0][1]
    assert moves(after) == [{"type": "keepEyeCard", "card": c} for c in (47, 46, 45)]
    kept = step(after, 0, {"type": "keepEyeCard", "card": 46})
    assert kept.hands[0] == [0, 1, 2, 46] and kept.discard == [47, 45] and kept.eye == []
    assert kept.phase == Phase.KEEP


def test_eye_draws_only_the_cards_that_exist_tt4_tt8() -> None:
    pool = [c for c in range(6, 46)]
    state = table(hands=HANDS, pool=pool, pile=[46, 47], tokens=[[False, True, False]] * 2)
    after = step(state, 0, {"type": "useEye"})
    assert after.eye == [47, 46] and after.pile == []


def test_extra_turn_at_the_end_of_an_a_turn_gives_the_same_seat_another_turn_tt4() -> None:
    state = table(hands=HANDS, pool=[6], pile=[47], tokens=[[False, False, True]] * 2)
    drawn = step(state, 0, {"type": "takeFromPool", "card": 6})
    ended = step(drawn, 0, {"type": "putInPool", "card": 0})
    assert ended.phase == Phase.END and GAME.to_act(ended) == [0]
    assert moves(ended) == [{"type": "useExtraTurn"}, {"type": "endTurn"}]
    again = step(ended, 0, {"type": "useExtraTurn"})
    assert again.active == 0 and again.phase == Phase.START and again.tokens[0][2] is False
    assert again.pool == [0, 47]  # the pool is refilled at the end of each turn (TT-8)
    passed = step(ended, 0, {"type": "endTurn"})
    assert passed.active == 1 and passed.tokens[0][2] is True


def test_pool_is_refilled_to_two_at_the_end_of_the_turn_tt8() -> None:
    state = table(hands=HANDS, pool=[6], pile=[46, 47])
    drawn = step(state, 0, {"type": "takeFromPool", "card": 6})
    assert drawn.pool == []
    after = step(drawn, 0, {"type": "putInPool", "card": 6})
    assert after.pool == [6, 47] and after.pile[-1] == 46


def test_empty_pile_is_rebuilt_from_the_shuffled_discard_tt8() -> None:
    pool = [c for c in range(6, 45)]
    state = table(hands=HANDS, pool=pool, discard=[45, 46, 47], pile=[])
    state.pile = []
    after = step(state, 0, {"type": "drawFromPile"})
    assert after.discard == [] and len(after.pile) == 2
    assert sorted([*after.pile, after.hands[0][3]]) == [45, 46, 47]
    again = step(state, 0, {"type": "drawFromPile"})
    assert again.pile == after.pile  # the shuffle comes from the seed in the state


def test_draw_options_disappear_when_no_card_can_be_drawn_tt8() -> None:
    state = table(hands=HANDS, pool=list(range(6, 48)), tokens=[[False, True, False]] * 2)
    assert state.pile == []
    assert kinds(state) == {"takeFromPool", "skipTurn"}


def test_token_turned_active_on_a_b_turn_is_usable_on_the_next_turn_tt4() -> None:
    state = table(hands=HANDS, pool=[6, 7], tokens=[[False, False, False]] * 2)
    assert "useEye" not in kinds(state)
    state = step(state, 0, {"type": "skipTurn", "token": "eye"})
    assert GAME.to_act(state) == [1]
    state = step(state, 1, {"type": "skipTurn", "token": "whirlwind"})
    assert "useEye" in kinds(state, 0) and "useWhirlwind" not in kinds(state, 0)
