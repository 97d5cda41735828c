"""The twelve glades (RULINGS TL-13, TL-14), each pinned on a hand-built position."""

from __future__ import annotations

import pytest

from service.games.treeline import GAME
from service.games.treeline.cards import GLADE_IDS
from service.games.treeline.state import State, cell_at

from .board import build, run

# The glade sits at (2,2). Row 2 and column 2 are its row and column; (1,3) holds AA and
# surrounds three Town cards; seat 0's largest group is (2,1)-(3,1)-(3,2).
CENTRE = """
S      F1:a   F2:bb  F1:b   T1
F3:aaA F1:B   F1:a   F2:AA  T1
F1:b   F1:a   Fg     F1:b   T1
F2:bB  F1:a   F1:A   F1:b   T1
F1:a   T1     T1     T1     S
"""


def glade_points(state: State) -> list[int]:
    """Each seat's points from glade items of the score breakdown."""
    return [
        sum(item.points for item in entry.breakdown if item.source == "glade")
        for entry in GAME.scores(state).entries
    ]


@pytest.mark.parametrize(
    ("glade", "expected"),
    [
        ("nextTo", [3, 1]),  # (1,2) a, (2,1) a, (3,2) A | (2,3) b
        ("diagonal", [3, 2]),  # (1,3) AA, (3,1) a | (1,1) B, (3,3) b
        ("mostEnergizedAround", [4, 0]),  # 3 Energized around vs 1
        ("pairsAround", [3, 1]),  # 6 tokens around vs 3
        ("pairsInRow", [0, 2]),  # row 2: 1 token vs 2
        ("pairsInColumn", [2, 2]),  # column 2: 2 tokens each
        ("pairsOnEdge", [4, 6]),  # edge cards: 5 tokens vs 6
        ("largestGroup", [4, 0]),  # 3 connected cards vs 2
        ("mostEnergizedInner", [4, 0]),  # non-edge Energized: 3 vs 1
        ("energizedByTown", [6, 2]),  # AA counted once though it surrounds three Town cards
        ("lonely", [0, 0]),  # every card here has a token next to it
        ("stationedEnergized", [0, 0]),  # nothing stationed
    ],
)
def test_tl14_glade_scores_on_the_centre_board(glade: str, expected: list[int]) -> None:
    state = build(CENTRE, glades=(glade,))
    assert glade_points(state) == expected
    items = [i for i in GAME.scores(state).entries[0].breakdown if i.source == "glade"]
    assert len(items) == 1 and items[0].detail.endswith("glade at (2,2)")


def test_tl14_lonely_pays_per_token_on_cards_with_no_token_next_to_them_nor_on_castles() -> None:
    picture = """
    S     F2:aa  F1    F1:b
    Fg    F1     F1:b  T1
    F1:a  T1     T1    S
    """
    # (0,1) aa and (2,0) a are quiet; (1,2) b is quiet; (0,3) b is next to castle D (column 3)
    state = build(picture, glades=("lonely",), stationed={3: ["a"]})
    assert glade_points(state) == [3, 1]
    state = build(picture, glades=("lonely",))
    assert glade_points(state) == [3, 2]


def test_tl14_stationed_energized_counts_castle_tokens_only() -> None:
    state = build(
        "S F1:A Fg\nF1:B T1 T1\nT1 T1 S",
        glades=("stationedEnergized",),
        stationed={0: ["A", "a"], 3: ["B", "B"]},
    )
    assert glade_points(state) == [2, 4]


def test_tl14_most_glades_need_at_least_one_counted_item() -> None:
    state = build("S F1:a Fg\nF1:b T1 T1\nT1 T1 S", glades=("mostEnergizedInner",))
    assert glade_points(state) == [0, 0]
    state = build("S F1:a Fg\nF1:b T1 T1\nT1 T1 S", glades=("mostEnergizedAround",))
    assert glade_points(state) == [0, 0]


def test_tl14_ties_for_most_score_for_every_tied_seat() -> None:
    state = build("S F1:A Fg\nF1:c F1:B T1\nT1 T1 S", players=3, glades=("mostEnergizedAround",))
    assert glade_points(state) == [4, 4, 0]
    state = build("S F1:a Fg\nF1:b T1 F1:c\nT1 T1 S", players=3, glades=("largestGroup",))
    assert glade_points(state) == [4, 4, 4]


@pytest.mark.parametrize("glade", GLADE_IDS)
def test_tl14_a_glade_with_a_token_on_it_or_town_side_up_scores_nothing(glade: str) -> None:
    occupied = build(CENTRE.replace("Fg", "Fg:a"), glades=(glade,))
    town = build(CENTRE.replace("Fg", "Tg"), glades=(glade,))
    for state in (occupied, town):
        assert glade_points(state) == [0, 0]
        assert all(i.source != "glade" for e in GAME.scores(state).entries for i in e.breakdown)


def test_tl14_moving_the_token_off_a_glade_activates_it() -> None:
    state = build(
        """
        S     Fg:a  T1  T1
        T1    T1    T1  T1
        T1    T1    T1  S
        """,
        glades=("nextTo",),
        supply=[0, 11],
    )
    assert glade_points(state) == [0, 0]
    state, _ = run(
        state,
        (0, {"type": "reforest", "row": 1, "col": 0, "toward": "right"}),
        (0, {"type": "deployCard", "row": 1, "col": 1}),
    )
    # seat 0's only token moved (forced) from the glade to (1,1), next to the glade
    assert state.tokens[cell_at(state, 0, 1)] == [] and state.tokens[cell_at(state, 1, 1)] == [0]
    assert glade_points(state)[0] == 1
