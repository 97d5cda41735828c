"""Landscape points (AV-8, AV-9, AV-10) and the rulebook's point-calculation example."""

from __future__ import annotations

from service.games.avenue import GAME
from service.games.avenue.cards import CARDS, TREES, WILD
from service.games.avenue.rules import EMPTY
from service.games.avenue.scoring import avenue_points, avenue_rank
from service.games.avenue.state import Phase, State
from tests.games.avenue.helpers import new

# A full park for the rulebook's example (3 players, black = seat 0). Gardener A on r2c2:
# column 2 holds 6 maples (a symbolic maple and the wild card among them), row 2 holds 4
# birches, and the 11 cards show 1 pavilion, 2 plazas and 1 pond. Gardener B on r5c5: column 5
# has 3 sakuras, row 5 has 3 ginkgos, and 1 pavilion.
EXAMPLE_PARK = [
    *(18, 21, 34, 3, 7, 8),
    *(2, 35, 20, 12, 9, 29),
    *(14, 11, 6, 30, 28, 1),
    *(32, 25, 0, 24, 19, 17),
    *(4, 22, 27, 33, 16, 31),
    *(10, 26, 13, 15, 23, 5),
]
A, B = 7, 28
SQUIRRELS, DEER = (0, 1, 2), (15, 16)
EIGHT_POINTS, TWELVE_POINTS = 1, 2  # one of each facility; 2 deer


def final_position(players: int = 3) -> State:
    state = new(players)
    state.park = list(EXAMPLE_PARK)
    state.deck, state.row, state.next_row = [], [], []
    state.gardeners = [[EMPTY, EMPTY] for _ in range(players)]
    state.tiles = [0] * 18  # every tile unowned on r1c1 ...
    state.phase = Phase.OVER
    return state


def example() -> State:
    state = final_position()
    state.gardeners[0] = [A, B]
    for t in SQUIRRELS[:2]:
        state.tiles[t] = A
    for t in (*DEER, SQUIRRELS[2]):
        state.tiles[t] = B
    state.projects = [[EIGHT_POINTS, TWELVE_POINTS], [3, 4], [5, 6]]
    return state


def test_av8_rulebook_avenue_example_symbolic_and_wild() -> None:
    sakura = TREES.index("sakura")
    symbolic = next(c.id for c in CARDS if c.tree == sakura and c.symbolic)
    plain = next(c.id for c in CARDS if c.tree == sakura and c.value == 2)
    wild = next(c.id for c in CARDS if c.tree == WILD)
    others = [next(c.id for c in CARDS if c.tree == t and c.value == 1) for t in (0, 1, 3)]
    assert avenue_rank([symbolic, wild, plain, *others]) == (4, sakura)
    assert avenue_points(4, tiles=2) == 12  # a good tree lined avenue, gardener with 2 tiles


def test_av8_fewer_than_three_scores_nothing() -> None:
    pairs = [next(c.id for c in CARDS if c.tree == t and c.value == 1) for t in range(5)]
    assert avenue_rank(pairs)[0] == 1
    assert avenue_points(2, tiles=3) == 0
    assert avenue_points(3, tiles=0) == 3


def test_rulebook_point_calculation_example_is_74() -> None:
    entry = GAME.scores(example()).entries[0]
    got = [(item.source, item.points) for item in entry.breakdown]
    assert got == [
        ("avenue", 12),  # A, row 2: 4 birches x (2 + 1)
        ("avenue", 18),  # A, column 2: 6 maples x (2 + 1)
        ("avenue", 12),  # B, row 5: 3 ginkgos x (3 + 1)
        ("avenue", 12),  # B, column 5: 3 sakuras x (3 + 1)
        ("project", 8),
        ("project", 12),
    ]
    assert entry.points == 74
    assert "4 birch x (2 tiles + 1)" in entry.breakdown[0].detail
    assert "6 maple" in entry.breakdown[1].detail
    assert "by the gardener on r2c2" in entry.breakdown[4].detail
    assert "by the gardener on r5c5" in entry.breakdown[5].detail


def test_av9_one_gardener_meets_several_projects_and_nothing_is_consumed() -> None:
    state = example()
    state.gardeners[0] = [A, EMPTY]
    state.tiles[15] = state.tiles[16] = A
    entry = GAME.scores(state).entries[0]
    projects = [i.points for i in entry.breakdown if i.source == "project"]
    assert projects == [8, 12]


def test_av9_objects_are_not_pooled_across_gardeners() -> None:
    state = example()
    state.tiles[16] = A  # one deer on each gardener: neither has two
    entry = GAME.scores(state).entries[0]
    assert [i.points for i in entry.breakdown if i.source == "project"] == [8, 0]
    assert entry.breakdown[5].detail.endswith("not met")


def test_av9_a_two_facility_card_counts_for_both() -> None:
    state = final_position()
    state.gardeners[1] = [7, EMPTY]
    state.projects[1] = [EIGHT_POINTS]  # a plaza, a pond and a pavilion
    plain, plaza_pond, pavilion = 0, 13, 10  # zelkova 1, birch 9, birch 5
    assert CARDS[plaza_pond].facilities == (0, 1) and CARDS[pavilion].facilities == (2,)
    for cell in (6, 7, 8, 9, 10, 11, 1, 13, 19, 25, 31):
        state.park[cell] = plain
    state.park[8], state.park[31] = plaza_pond, pavilion
    assert GAME.scores(state).entries[1].breakdown[-1].points == 8
    state.park[8] = plain
    assert GAME.scores(state).entries[1].breakdown[-1].points == 0


def test_av9_projects_stay_out_of_live_scores_until_the_end() -> None:
    state = example()
    state.phase = Phase.CARD
    live = GAME.scores(state)
    assert not live.final and live.winners == []
    assert [i.source for i in live.entries[0].breakdown] == ["avenue"] * 4
    assert live.entries[0].points == 54


def test_av10_ties_share_the_victory() -> None:
    state = example()
    state.gardeners[0] = [EMPTY, EMPTY]
    scores = GAME.scores(state)
    assert scores.final and [e.points for e in scores.entries] == [0, 0, 0]
    assert scores.winners == [0, 1, 2]
    assert GAME.scores(example()).winners == [0]
