"""Claiming castles of restored lines (RULINGS TL-6, TL-7, TL-8, TL-9)."""

from __future__ import annotations

from service.games.treeline.rules import claim_winner
from service.games.treeline.state import Phase

from .board import build, cell_tokens, moves, run

SUPPLY = {"type": "deployFromSupply"}
ROW0, COL4 = 5, 4  # line ids on a 4x5 board: columns 0..4, then rows


def reforest(row: int, col: int, toward: str = "right") -> dict[str, object]:
    return {"type": "reforest", "row": row, "col": col, "toward": toward}


def card(row: int, col: int) -> dict[str, object]:
    return {"type": "deployCard", "row": row, "col": col}


def station(row: int, col: int, energized: bool = False) -> dict[str, object]:
    return {"type": "stationToken", "row": row, "col": col, "energized": energized}


def energize(row: int, col: int) -> dict[str, object]:
    return {"type": "energize", "row": row, "col": col}


TWO_LINES = """
S     F1:a  F1:b  F1:b  T1
T1    T1    T1    T1    T2
T1    T1    T1    T1    F1:a
T1    T1    T1    T1    S
"""


def test_tl6_restored_lines_resolve_in_priority_letter_order_then_tl8_tl9() -> None:
    # column 4 holds castle D, row 0 castle B: row 0 resolves first though its line id is later
    tiles = [10, 11, 12, 13, 3, 1, 14, 15, 9]
    state = build(TWO_LINES, tiles=tiles)
    state, _ = run(state, (0, reforest(0, 4, "down")), (0, card(1, 4)), (0, SUPPLY), (0, SUPPLY))
    state, labels = run(state, (1, SUPPLY))
    assert labels == ["token from supply to (0,4)"]
    assert cell_tokens(state, 1, 4) == "aa"
    assert state.phase == Phase.STATION and state.actor == 1  # seat 1 wins B: 3 vs 1 in row 0
    assert state.castles[ROW0].owner == 1 and state.claim_line == ROW0
    assert moves(state) == [station(0, 2), station(0, 3), station(0, 4)]
    state, labels = run(state, (1, station(0, 3)))
    # seat 0 energizes its one Normal token in row 0 (forced), then column 4 (D) is claimed
    assert labels[1] == "energize token at (0,1) (castle B)"
    assert cell_tokens(state, 0, 1) == "A" and state.castles[ROW0].stationed == [2]
    assert state.castles[COL4].owner == 0 and state.actor == 0  # 3 vs 1 in column 4
    assert moves(state) == [station(1, 4), station(2, 4)]
    state, labels = run(state, (0, station(2, 4)))
    assert labels[-1] == "energize token at (0,4) (castle D)"  # seat 1, forced
    assert cell_tokens(state, 0, 4) == "B"
    assert state.phase == Phase.REFOREST and state.active == 1


def test_tl6_lines_without_town_at_turn_start_are_never_claimed() -> None:
    state = build(
        """
        S     F1:b  F1:b  F1:b  F1:b
        T1    T1    T1    T1    T1
        T1    T1    T1    T1    T1
        T1    T1    T1    T1    S
        """
    )
    assert ROW0 not in state.open_lines
    state, _ = run(state, (0, reforest(1, 0)), (0, card(1, 0)), (1, SUPPLY))
    assert state.castles[ROW0].owner == -1 and state.phase == Phase.REFOREST


def test_tl7_energized_tokens_count_two_influence() -> None:
    tied = "S F1:A F1:b F1:b T1\nT1 T1 T1 T1 T1\nT1 T1 T1 T1 S"
    row0 = 5  # on a 3x5 board
    assert claim_winner(build(tied, active=1), row0) == (1, True)  # 2 vs 2: active seat wins
    assert claim_winner(build(tied, active=0), row0) == (0, True)
    ahead = tied.replace("F1:b T1\n", "F1 T1\n")
    assert claim_winner(build(ahead, active=1), row0) == (0, False)  # 2 vs 1


def test_tl7_tie_without_active_seat_goes_to_next_tied_seat_in_turn_order() -> None:
    picture = "S F1:a F1:c F1:b\nT1 T1 T1 T1\nT1 T1 T1 S"
    line = 4  # row 0 on a 3x4 board
    assert claim_winner(build(picture, players=4, active=3), line) == (0, True)
    assert claim_winner(build(picture, players=4, active=1), line) == (1, True)
    assert claim_winner(build(picture, players=4, active=2), line) == (2, True)
    assert claim_winner(build(picture.replace("F1:b", "F1"), players=4, active=1), line) == (
        2,
        True,
    )


def test_tl7_all_zero_influence_is_a_tie_won_by_the_active_seat() -> None:
    picture = "S F1 F1 F1\nT1 T1 T1 T1\nT1 T1 T1 S"
    assert claim_winner(build(picture, players=3, active=2), 4) == (2, True)


TIE_ROW = """
S     F1:b  F1    T1    F1
T1    T1    T1    T1    T1
T1    T1    T1    T1    T1
T1    T1    T1    F1:a  S
"""


def test_tl8_tie_winner_stations_two_taking_the_second_from_elsewhere() -> None:
    state = build(TIE_ROW)
    state, _ = run(state, (0, reforest(0, 3, "down")), (0, card(0, 3)), (0, SUPPLY))
    state, _ = run(state, (1, SUPPLY))
    # row 0: seat 0 has 1 (its new token), seat 1 has 1: tie, active seat 0 wins and owes two
    assert state.castles[ROW0].owner == 0 and state.actor == 0
    assert state.castles[ROW0].stationed == [0]  # the only token in the line went first (forced)
    assert moves(state) == [{"type": "stationFromSupply"}, station(3, 3)]
    state, labels = run(state, (0, station(3, 3)))
    assert labels[0] == "station Normal token from (3,3) on castle F"
    assert state.castles[ROW0].stationed == [0, 0] and cell_tokens(state, 3, 3) == ""
    assert cell_tokens(state, 0, 1) == "B"  # seat 1 energized its Normal token in row 0


def test_tl8_tie_win_with_no_token_anywhere_still_claims_the_castle() -> None:
    state = build(TIE_ROW.replace("F1:b", "F1").replace("F1:a", "F1"), supply=[0, 0])
    state, _ = run(state, (0, reforest(0, 3, "down")))
    assert state.castles[ROW0].owner == 0 and state.castles[ROW0].stationed == []
    assert state.phase == Phase.REFOREST and state.active == 1


def test_tl8_all_zero_tie_stations_both_tokens_from_elsewhere() -> None:
    state = build(TIE_ROW.replace("F1:b", "F1"), supply=[0, 0])
    state, _ = run(state, (0, reforest(0, 3, "down")), (0, card(1, 3)))
    # seat 0's only token moved to (1,3), outside row 0; seat 1 has none: all-zero tie
    assert state.castles[ROW0].owner == 0
    assert state.castles[ROW0].stationed == [0] and cell_tokens(state, 1, 3) == ""


def test_tl8_a_claimed_castle_stays_claimed_when_influence_changes() -> None:
    state = build(
        """
        S     F1:a  F1:b  F1:b  F3:aaa
        T1    T1    T1    T1    T1
        T1    T1    T1    T1    T1
        T1    T1    T1    T1    S
        """,
        stationed={ROW0: ["b"]},
    )
    state, _ = run(state, (0, reforest(1, 0)), (0, card(1, 0)), (0, SUPPLY))
    assert state.castles[ROW0].owner == 1 and state.castles[ROW0].stationed == [2]


def test_tl9_every_other_seat_energizes_in_turn_order_after_the_winner_by_choice() -> None:
    state = build(
        """
        S     F2:aa F2:bb F2:cc F1:d  T1    T1
        T1    T1    T1    T1    T1    T1    T1
        T1    T1    T1    T1    T1    T1    S
        """,
        players=4,
        active=2,
    )
    row0 = 7
    state, _ = run(state, (2, reforest(0, 5)), (2, card(0, 5)), (2, SUPPLY), (3, SUPPLY))
    assert cell_tokens(state, 0, 5) == "c" and cell_tokens(state, 0, 6) == "d"
    # row 0: a 2, b 2, c 3, d 2 -> seat 2 wins, stations one of its tokens
    assert state.castles[row0].owner == 2 and state.actor == 2
    state, _ = run(state, (2, station(0, 5)))
    assert state.actor == 3 and moves(state) == [energize(0, 4), energize(0, 6)]
    state, labels = run(state, (3, energize(0, 6)))
    assert cell_tokens(state, 0, 6) == "D"
    # seats 0 then 1 each have one card with Normal tokens: their choice is forced (ALL-3)
    assert labels[1:] == [
        "energize token at (0,1) (castle H)",
        "energize token at (0,2) (castle H)",
    ]
    assert cell_tokens(state, 0, 1) == "Aa" and cell_tokens(state, 0, 2) == "Bb"
    assert state.phase == Phase.REFOREST and state.active == 3
