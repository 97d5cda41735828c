"""Planting: where a tree may go and what it scores (RULINGS TT-5, TT-6, TT-7, TT-9), and the
rulebook's worked example."""

from __future__ import annotations

import pytest

from service.engine import play
from service.games.treetopia import GAME
from service.games.treetopia.sanctuary import legal_cells
from service.games.treetopia.state import Phase, Planted, State
from tests.games.treetopia.tables import (
    DESERT,
    ICY,
    INDUSTRIAL,
    MUSHROOM,
    PALM,
    PALM_SPIRAL,
    PEARL,
    SPIRAL,
    SWAMP,
    card,
    table,
    tree,
)
from tests.games.treetopia.test_turn import moves, step

# Seat 0 holds the Icy Landscape Palm Tree (33), an Icy Pearl and a Swamp Mushroom; taking the
# Swamp Palm (24) from the pool meets its need: exactly 2 Icy Landscape and 2 Swamp.
EXAMPLE_HAND = [33, card(PEARL, ICY), card(MUSHROOM, SWAMP)]
SWAMP_PALM = card(PALM, SWAMP)
POOL = [SWAMP_PALM, 44]
OTHER_HANDS = [[3, 4, 5], [15, 16, 17], [45, 46, 47]]


def plant_icy_palm(state: State, row: int, col: int) -> State:
    state = step(state, 0, {"type": "takeFromPool", "card": SWAMP_PALM})
    assert {"type": "plant", "card": 33} in moves(state)
    state = step(state, 0, {"type": "plant", "card": 33})
    if state.phase == Phase.CELL:
        state = step(state, 0, {"type": "plantAt", "row": row, "col": col})
    return state


def example_position(players: int = 2, tokens: list[list[bool]] | None = None) -> State:
    """Three palms in a group next to (2, 4), and two spirals around that cell."""
    sanctuary = [
        tree(PALM, INDUSTRIAL, 1, 2),
        tree(PALM, SWAMP, 2, 2, k=1),
        tree(PALM, SWAMP, 2, 3, k=2),
        tree(PEARL, DESERT, 1, 3),
        tree(SPIRAL, DESERT, 1, 4),
        tree(MUSHROOM, DESERT, 3, 3),
        tree(SPIRAL, DESERT, 3, 4, k=1),
    ]
    hands = [EXAMPLE_HAND, *OTHER_HANDS[: players - 1]]
    return table(players, hands, POOL, sanctuary=sanctuary, tokens=tokens)


def test_rulebook_example_scores_5_card_3_group_2_symbiosis() -> None:
    state = example_position()
    after = plant_icy_palm(state, 2, 4)
    planted = after.sanctuary[-1]
    assert (planted.card, planted.seat, planted.row, planted.col) == (33, 0, 2, 4)
    assert (planted.hope, planted.group, planted.symbiosis) == (5, 3, 2)
    entry = GAME.scores(after).entries[0]
    assert entry.points == 10
    assert entry.breakdown[0].detail == (
        "Icy Landscape Palm Tree at row 2, column 4: 5 card + 3 group + 2 symbiosis"
    )
    assert after.hands[0] == [card(PEARL, ICY), card(MUSHROOM, SWAMP), SWAMP_PALM]
    # The group of four lets the other seat turn a token active (TT-6).
    assert after.phase == Phase.REWARD and GAME.to_act(after) == [1]


def test_first_tree_goes_to_the_centre_as_a_forced_decision_tt5() -> None:
    state = table(2, [EXAMPLE_HAND, OTHER_HANDS[0]], POOL)
    state = step(state, 0, {"type": "takeFromPool", "card": SWAMP_PALM})
    played = play(GAME, state, 0, {"type": "plant", "card": 33})
    assert [s.forced for s in played.steps] == [False, True]
    assert played.state.sanctuary == [Planted(33, 0, 2, 4, 5, 0, 0)]


def test_trees_go_next_to_a_planted_tree_within_5_by_3_for_two_players_tt5() -> None:
    rows = [tree(PEARL, e, 1, 2 + c, k=k) for c, (e, k) in enumerate([(0, 0), (0, 1), (0, 2)])]
    rows += [tree(MUSHROOM, e, 1, 5 + c) for c, e in enumerate([SWAMP, INDUSTRIAL])]
    state = table(2, sanctuary=rows)
    assert legal_cells(state) == [(0, c) for c in range(2, 7)] + [(2, c) for c in range(2, 7)]
    state.sanctuary += [tree(SPIRAL, SWAMP, 2, 2), tree(SPIRAL, SWAMP, 3, 2, k=1)]
    assert legal_cells(state) == [(2, c) for c in range(3, 7)] + [(3, 3)]


def test_columns_may_hold_four_trees_with_three_or_four_players_tt5() -> None:
    column = [tree(PEARL, SWAMP, r, 4, k=r - 1) for r in (1, 2, 3)]
    state = table(3, sanctuary=column)
    assert (0, 4) in legal_cells(state) and (4, 4) in legal_cells(state)
    state.sanctuary.append(tree(PEARL, DESERT, 4, 4))
    assert (0, 4) not in legal_cells(state) and (5, 4) not in legal_cells(state)
    two = table(2, sanctuary=column)
    assert (0, 4) not in legal_cells(two) and (4, 4) not in legal_cells(two)


def palms(cells: list[tuple[int, int]]) -> list[Planted]:
    ids = [c for c in range(24, 33) if c != SWAMP_PALM]
    return [Planted(ids[i], 1, r, c, 2, 0, 0) for i, (r, c) in enumerate(cells)]


@pytest.mark.parametrize(
    ("others", "bonus"),
    [
        ([], 0),
        ([(2, 3)], 1),
        ([(2, 3), (2, 2)], 2),
        ([(2, 3), (2, 2), (2, 1)], 3),
        ([(2, 3), (2, 5), (3, 5)], 3),  # a merge of a group of 1 and a group of 2 into 4
        ([(2, 3), (2, 2), (2, 1), (2, 0)], 0),  # a fifth tree in a group pays nothing
        ([(2, 3), (2, 2), (2, 5), (2, 6)], 0),  # a merge into a group of 5 pays nothing
    ],
)
def test_group_bonus_counts_the_other_trees_of_a_group_of_up_to_four_tt6(
    others: list[tuple[int, int]], bonus: int
) -> None:
    sanctuary = [tree(PEARL, DESERT, 1, 4), *palms(others)]
    if (2, 5) in others or (3, 5) in others:
        sanctuary.append(tree(PEARL, DESERT, 3, 4, k=1))
    state = table(2, [EXAMPLE_HAND, OTHER_HANDS[0]], POOL, sanctuary=sanctuary)
    state.symbiosis = 0  # pearl and mushroom: no symbiosis bonus here
    after = plant_icy_palm(state, 2, 4)
    assert after.sanctuary[-1].group == bonus
    assert (after.phase == Phase.REWARD) == (bonus == 3)


def test_group_of_four_lets_each_other_seat_in_turn_order_turn_one_token_tt6() -> None:
    tokens = [[True, False, False], [False, True, True], [True] * 3, [True, True, False]]
    state = example_position(4, tokens)
    state.active = 0
    after = plant_icy_palm(state, 2, 4)
    assert after.rewards == [1, 3]  # seat 2 has no inactive token
    assert GAME.to_act(after) == [1]
    assert moves(after, 1) == [
        {"type": "activateToken", "token": "whirlwind"},
        {"type": "declineToken"},
    ]
    after = step(after, 1, {"type": "declineToken"})
    assert GAME.to_act(after) == [3] and after.tokens[1] == [False, True, True]
    after = step(after, 3, {"type": "activateToken", "token": "extraTurn"})
    assert after.tokens[3] == [True] * 3
    assert after.active == 1 and after.phase == Phase.START


@pytest.mark.parametrize(("symbiosis", "bonus"), [(PALM_SPIRAL, 2), (0, 0), (1, 1), (3, 1), (4, 0)])
def test_symbiosis_pays_one_per_adjacent_partner_tt7(symbiosis: int, bonus: int) -> None:
    # Around (2, 4): spirals at (1, 4) and (3, 4), a pearl at (2, 3), a mushroom at (2, 5).
    sanctuary = [
        tree(SPIRAL, DESERT, 1, 4),
        tree(SPIRAL, DESERT, 3, 4, k=1),
        tree(PEARL, DESERT, 2, 3),
        tree(MUSHROOM, DESERT, 2, 5),
        tree(PEARL, DESERT, 1, 3, k=1),
    ]
    state = table(2, [EXAMPLE_HAND, OTHER_HANDS[0]], POOL, sanctuary=sanctuary)
    state.symbiosis = symbiosis
    after = plant_icy_palm(state, 2, 4)
    assert after.sanctuary[-1].symbiosis == bonus


def full_but_one(players: int = 2) -> State:
    """Every cell but (3, 6) planted; a palm group of three waits next to it."""
    fillers = [c for c in range(0, 24) if c not in EXAMPLE_HAND + OTHER_HANDS[0]]
    sanctuary = palms([(2, 6), (2, 5), (1, 5)])
    for r in (1, 2, 3):
        for c in range(2, 7):
            if (r, c) not in [(3, 6), (2, 6), (2, 5), (1, 5)]:
                sanctuary.append(Planted(fillers.pop(), 1, r, c, 2, 0, 0))
    tokens = [[False, False, True], [False, False, False]]
    return table(players, [EXAMPLE_HAND, OTHER_HANDS[0]], POOL, sanctuary=sanctuary, tokens=tokens)


def test_planting_the_last_cell_ends_the_game_at_once_tt9() -> None:
    state = full_but_one()
    after = plant_icy_palm(state, 3, 6)  # a single legal cell: forced
    assert after.sanctuary[-1].group == 3  # a group of four, yet no reward decision
    assert after.phase == Phase.OVER and GAME.is_over(after) and GAME.to_act(after) == []
    assert after.tokens[0][2] is True  # no extra turn after the last tree
    scores = GAME.scores(after)
    assert scores.final and scores.winners == [1]


def test_tied_seats_all_win_tt9() -> None:
    state = full_but_one()
    state.sanctuary[0].seat = 0
    after = plant_icy_palm(state, 3, 6)
    points = {e.seat: e.points for e in GAME.scores(after).entries}
    assert points[0] != points[1]
    # Give seat 0 exactly seat 1's total through one of its planted trees.
    after.sanctuary[0].hope += points[1] - points[0]
    scores = GAME.scores(after)
    assert scores.winners == [0, 1]
