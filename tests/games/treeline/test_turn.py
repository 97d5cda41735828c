"""Reforest, isolation and the two deploys of a turn (RULINGS TL-3, TL-4, TL-5)."""

from __future__ import annotations

from service.engine import play
from service.games.treeline import GAME
from service.games.treeline.state import Phase, cell_at

from .board import build, cell_tokens, moves, run

SUPPLY = {"type": "deployFromSupply"}

OPEN_BOARD = """
S     F2:aA T2 T2 T1
T3    T1    T1 T1 T1
T1    T1    T1 T1 T1
F1:b  T1    T1 T1 S
"""


def reforest(row: int, col: int, toward: str = "right") -> dict[str, object]:
    return {"type": "reforest", "row": row, "col": col, "toward": toward}


def from_card(row: int, col: int, energized: bool = False) -> dict[str, object]:
    return {"type": "deployFromCard", "row": row, "col": col, "energized": energized}


def test_tl3_only_adjacent_town_pairs_touching_forest_are_listed() -> None:
    state = build(
        """
        S  T1 T1 T1
        T1 T1 T1 T1
        T1 T1 T1 S
        """
    )
    listed = [(m["row"], m["col"], m["toward"]) for m in moves(state)]
    # (1,1) is only diagonal to the starting tile, so (1,1)+(2,1) is not a legal pair
    assert listed == [
        (0, 1, "right"),
        (0, 1, "down"),
        (0, 3, "down"),
        (1, 0, "right"),
        (1, 0, "down"),
        (1, 2, "right"),
        (1, 2, "down"),
        (2, 1, "right"),
    ]


def test_tl3_isolated_town_cards_flip_too_and_can_be_deployed_to() -> None:
    state = build(
        """
        S  T1 T2 T1
        T3 F1 T1 F1
        T1 T1 T1 S
        """
    )
    state, labels = run(state, (0, reforest(0, 1)))
    assert labels[0] == "reforest (0,1) and (0,2)"
    # (0,3) lost its last Town neighbour (0,2); (1,2) still touches (2,2)
    assert [cell_at(state, 0, 1), cell_at(state, 0, 2), cell_at(state, 0, 3)] == state.flipped
    assert state.forest[cell_at(state, 0, 3)] and not state.forest[cell_at(state, 1, 2)]
    assert [(m["row"], m["col"]) for m in moves(state)] == [(0, 1), (0, 2), (0, 3)]


def test_tl4_deploy_is_card_then_one_source_per_space_and_moved_tokens_keep_their_side() -> None:
    state = build(OPEN_BOARD)
    state, _ = run(state, (0, reforest(0, 2)), (0, {"type": "deployCard", "row": 0, "col": 2}))
    assert state.phase == Phase.DEPLOY_SOURCE
    assert moves(state) == [SUPPLY, from_card(0, 1, False), from_card(0, 1, True)]
    state, labels = run(state, (0, from_card(0, 1, True)))
    assert labels == ["move Energized token (0,1) to (0,2)"]
    assert cell_tokens(state, 0, 2) == "A" and cell_tokens(state, 0, 1) == "a"
    assert moves(state) == [SUPPLY, from_card(0, 1, False)]  # never the card being filled
    state, _ = run(state, (0, SUPPLY))
    assert cell_tokens(state, 0, 2) == "Aa" and state.supply[0] == 8
    # the card is full: the next seat deploys to the other card, chosen for them (ALL-3)
    assert state.actor == 1 and state.phase == Phase.DEPLOY_SOURCE
    assert state.target == cell_at(state, 0, 3)


def test_tl4_with_supply_empty_tokens_must_come_off_other_cards() -> None:
    state = build(OPEN_BOARD, supply=[0, 10])
    state, _ = run(state, (0, reforest(0, 2)), (0, {"type": "deployCard", "row": 0, "col": 3}))
    assert moves(state) == [from_card(0, 1, False), from_card(0, 1, True)]
    state, _ = run(state, (0, from_card(0, 1, False)))
    # the last available token is forced onto the card (ALL-3)
    assert cell_tokens(state, 0, 3) == "aA" and cell_tokens(state, 0, 1) == ""


def test_tl4_too_few_tokens_fill_as_many_spaces_as_possible() -> None:
    state = build(OPEN_BOARD.replace("F2:aA", "F2:a"), supply=[0, 10])
    state, _ = run(state, (0, reforest(0, 2)), (0, {"type": "deployCard", "row": 0, "col": 2}))
    assert cell_tokens(state, 0, 2) == "a"  # one of two spaces, then the deploy ends
    assert state.actor == 1 and state.target == cell_at(state, 0, 3)


def test_tl4_no_available_token_skips_the_deploy_and_stationed_tokens_never_count() -> None:
    state = build(OPEN_BOARD.replace("F2:aA", "F2"), supply=[0, 10], stationed={0: ["a"]})
    state, _ = run(state, (0, reforest(0, 2)))
    # seat 0 skips; TL-5's "different card" has nothing to differ from, so seat 1 may pick either
    assert state.actor == 1 and state.phase == Phase.DEPLOY_CARD
    assert [(m["row"], m["col"]) for m in moves(state)] == [(0, 2), (0, 3)]
    assert state.castles[0].stationed == [0]


def test_tl5_next_seat_deploys_to_a_different_flipped_card() -> None:
    state = build(OPEN_BOARD)
    state, _ = run(state, (0, reforest(0, 2)), (0, {"type": "deployCard", "row": 0, "col": 3}))
    state, _ = run(state, (0, SUPPLY), (0, SUPPLY))
    assert state.actor == 1 and state.target == cell_at(state, 0, 2)
    assert moves(state) == [SUPPLY, from_card(3, 0)]
    state, labels = run(state, (1, from_card(3, 0)))
    assert labels == ["move Normal token (3,0) to (0,2)", "token from supply to (0,2)"]
    assert cell_tokens(state, 0, 2) == "bb" and cell_tokens(state, 3, 0) == ""
    assert state.phase == Phase.REFOREST and state.active == 1  # nothing restored: next turn


def test_tl5_next_seat_is_seat_after_active_even_with_three_players() -> None:
    state = build(OPEN_BOARD, players=3, active=2)
    state, labels = run(state, (2, reforest(0, 2)), (2, {"type": "deployCard", "row": 0, "col": 2}))
    assert labels[2:] == ["token from supply to (0,2)"] * 2 + ["deploy to (0,3)"]
    assert state.actor == 0  # seat 2's next seat is seat 0
    assert GAME.legal_moves(state, 1) == []


def test_tl5_next_seat_without_tokens_skips_its_deploy() -> None:
    state = build(OPEN_BOARD.replace("F1:b", "F1"), supply=[9, 0])
    state, _ = run(state, (0, reforest(0, 2)), (0, {"type": "deployCard", "row": 0, "col": 2}))
    state, _ = run(state, (0, SUPPLY), (0, SUPPLY))
    assert state.phase == Phase.REFOREST and state.active == 1
    assert state.tokens[cell_at(state, 0, 3)] == []


def test_moves_out_of_turn_are_rejected_with_a_code() -> None:
    state = build(OPEN_BOARD)
    try:
        play(GAME, state, 1, reforest(0, 2))
    except Exception as exc:
        assert getattr(exc, "code", None) == "NOT_YOUR_TURN"
    else:
        raise AssertionError("seat 1 moved out of turn")
