"""Game end, castle points, teams and the tie-break (RULINGS TL-10, TL-11, ALL-5)."""

from __future__ import annotations

from service.engine import IllegalMove, play
from service.games.treeline import GAME
from service.games.treeline.cards import CASTLES
from service.games.treeline.rules import claim_winner
from service.games.treeline.state import End, Phase

from .board import build, run

SIX_TOWNS = """
S    F1:a F1  F1
T1   T1   T1  F1
T1   T1   T1  S
"""


def test_tl10_game_ends_at_end_of_turn_with_four_or_fewer_town_cards() -> None:
    state = build(SIX_TOWNS)
    state, _ = run(
        state,
        (0, {"type": "reforest", "row": 1, "col": 0, "toward": "right"}),
        (0, {"type": "deployCard", "row": 1, "col": 0}),
        (0, {"type": "deployFromSupply"}),
    )
    assert state.phase == Phase.OVER and state.end == End.FEW_TOWNS
    assert GAME.to_act(state) == [] and GAME.view(state, None).end_reason == "fourOrFewerTownCards"
    scores = GAME.scores(state)
    assert scores.final and scores.winners == [0, 1]  # 0-0, no castles: still tied (ALL-5)
    try:
        play(GAME, state, 1, {"type": "deployFromSupply"})
    except IllegalMove as exc:
        assert exc.code == "GAME_OVER"
    else:
        raise AssertionError("a move was accepted after the end")


def test_tl10_a_town_side_glade_counts_as_a_town_card() -> None:
    state = build(
        SIX_TOWNS.replace("T1  F1", "T1  T1").replace("T1   T1   T1  S", "T1 T1 Tg S"),
        glades=("nextTo",),
    )
    state, _ = run(
        state,
        (0, {"type": "reforest", "row": 1, "col": 0, "toward": "right"}),
        (0, {"type": "deployCard", "row": 1, "col": 0}),
        (0, {"type": "deployFromSupply"}),
    )
    assert GAME.view(state, None).town_cards == 5
    assert state.phase == Phase.REFOREST and state.active == 1


def test_tl10_a_seat_to_act_without_a_legal_reforest_ends_the_game_at_once() -> None:
    # only reachable on a hand-built table: in play every Town card keeps a Town neighbour
    state = build("S T1 F1 T1\nT1 F1 T1 F1\nF1 T1 F1 S", stationed={5: ["b"]})
    assert state.phase == Phase.OVER and state.end == End.NO_REFOREST
    scores = GAME.scores(state)
    assert scores.final and scores.winners == [1]


def test_tl10_teams_add_their_points_and_breakdowns_list_both_members() -> None:
    state = build(
        "S T1 T1 T1\nT1 T1 T1 T1\nT1 T1 T1 S",
        players=4,
        tiles=[0, 1, 2, 3, 13, 14, 15],
        stationed={0: ["a"], 1: ["c"], 6: ["b"]},
    )
    a, b, p = CASTLES[0].points, CASTLES[1].points, CASTLES[15].points
    entries = GAME.scores(state).entries
    assert [e.points for e in entries] == [a + b, p, a + b, p]
    assert [i.detail for i in entries[0].breakdown] == [
        "seat 0: castle A (column 0)",
        "seat 2: castle B (column 1)",
    ]
    assert entries[2].breakdown == entries[0].breakdown
    assert all(e.points == sum(i.points for i in e.breakdown) for e in entries)
    state.phase = Phase.OVER
    assert a + b < p
    assert GAME.scores(state).winners == [1, 3]


def test_tl11_team_tie_goes_to_the_team_with_the_earliest_letter() -> None:
    # seats 0+2 hold A and E, seats 1+3 hold B and D: 2+3 against 2+3 in our data
    state = build(
        "S T1 T1 T1\nT1 T1 T1 T1\nT1 T1 T1 S",
        players=4,
        stationed={0: ["a"], 4: ["c"], 1: ["b"], 3: ["d"]},
    )
    state.phase = Phase.OVER
    scores = GAME.scores(state)
    assert [e.points for e in scores.entries] == [5, 5, 5, 5]
    assert [e.tiebreak for e in scores.entries] == [[16], [15], [16], [15]]
    assert scores.winners == [0, 2]


def test_tl10_claims_are_per_seat_even_between_teammates() -> None:
    state = build("S F1:a F1:c T1\nT1 T1 T1 T1\nT1 T1 T1 S", players=4, active=0)
    assert claim_winner(state, 4) == (0, True)  # teammates 0 and 2 tie; influence not pooled


def test_tl11_tie_on_points_goes_to_the_earliest_castle_letter() -> None:
    assert CASTLES[0].points == CASTLES[1].points  # A and B are worth the same in our data
    state = build("S T1 T1\nT1 T1 T1\nT1 T1 S", tiles=[1, 0, 2, 3, 4, 5])
    state.castles[0].owner = 0  # castle B
    state.castles[1].owner = 1  # castle A
    state.phase = Phase.OVER
    scores = GAME.scores(state)
    assert [e.points for e in scores.entries] == [CASTLES[1].points, CASTLES[0].points]
    assert [e.tiebreak for e in scores.entries] == [[15], [16]]
    assert scores.winners == [1]


def test_scores_are_live_during_the_game_without_winners() -> None:
    state = build("S T1 T1\nT1 T1 T1\nT1 T1 S", stationed={2: ["a"]}, tiles=[0, 1, 4, 3, 2, 5])
    scores = GAME.scores(state)
    assert not scores.final and scores.winners == []
    assert scores.entries[0].points == CASTLES[4].points
    assert scores.entries[0].breakdown[0].detail == "castle E (column 2)"
