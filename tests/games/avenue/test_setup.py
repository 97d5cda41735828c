"""Components, card data and setup: AV-1, AV-2, AV-3, AV-4."""

from __future__ import annotations

from collections import Counter

import pytest

from service.engine import BadSetup, start
from service.games.avenue import GAME
from service.games.avenue.cards import (
    ANIMALS,
    CARDS,
    PROJECTS,
    TILE_ANIMAL,
    TREES,
    WILD,
    CardDataError,
    DataFile,
    _validate,
    load,
)
from service.games.avenue.rules import EMPTY, draw_row, is_edge
from service.games.avenue.state import ChooseCard, Phase
from tests.conformance import playout
from tests.games.avenue.helpers import act, new, take_turn


@pytest.mark.parametrize(
    ("players", "gardeners", "tokens", "row", "rounds"),
    [(2, 3, 2, 4, 8), (3, 2, 1, 3, 10), (4, 2, 1, 4, 8)],
)
def test_av1_components_and_rounds_per_player_count(
    players: int, gardeners: int, tokens: int, row: int, rounds: int
) -> None:
    state = new(players)
    assert [len(g) for g in state.gardeners] == [gardeners] * players
    assert Counter(state.order) == {seat: tokens for seat in range(players)}
    assert len(state.row) == len(state.next_row) == row
    assert GAME.view(state, None).rounds == rounds
    final, _ = playout(GAME, players, "rounds", try_every_move=False)
    assert final.round == rounds


def test_av1_player_counts_outside_two_to_four_are_refused() -> None:
    for players in (1, 5):
        with pytest.raises(BadSetup):
            start(GAME, players, None, "x")


def test_av2_area_deck_counts() -> None:
    assert len(CARDS) == 36
    for tree in range(len(TREES)):
        own = [c for c in CARDS if c.tree == tree]
        assert len(own) == 7
        assert [c.value for c in own].count(1) == 1
        assert any(c.value == 2 for c in own)
        assert [(c.value, c.symbolic) for c in own if c.symbolic] == [(7, True)]
    assert [(c.value, c.symbolic) for c in CARDS if c.tree == WILD] == [(10, False)]
    assert any(len(c.facilities) == 2 for c in CARDS)
    assert sum(c.action != -1 for c in CARDS) == 12


def test_av2_projects_include_the_three_the_rulebook_prints() -> None:
    assert len(PROJECTS) == 12
    faces = {(p.points, p.animals, p.facilities) for p in PROJECTS}
    assert (11, (1, 0, 0, 0), (0, 0, 2)) in faces  # 1 squirrel + 2 pavilions
    assert (8, (0, 0, 0, 0), (1, 1, 1)) in faces  # one of each facility
    assert (12, (0, 0, 0, 2), (0, 0, 0)) in faces  # 2 deer


def test_av2_animal_tiles() -> None:
    assert Counter(ANIMALS[a] for a in TILE_ANIMAL) == {
        "squirrel": 6,
        "duck": 5,
        "fox": 4,
        "deer": 3,
    }


def test_av2_data_file_that_breaks_a_count_is_refused() -> None:
    data = load()
    broken = DataFile(**{f: getattr(data, f) for f in DataFile.__struct_fields__})
    broken.cards = data.cards[:-1]
    from service.games.avenue.cards import _card

    cards = [_card(i, c, broken) for i, c in enumerate(broken.cards)]
    with pytest.raises(CardDataError):
        _validate(broken, cards, list(PROJECTS))


def test_av3_diagonal_corner_and_edge_tiles() -> None:
    diagonals = set()
    for seed in ("a", "b", "c", "d", "e", "f"):
        state = new(3, seed)
        diagonal = [state.park[i * 7] for i in range(5)]
        diagonals.add(tuple(diagonal))
        assert sorted(CARDS[c].value for c in diagonal) == [1] * 5
        assert {CARDS[c].tree for c in diagonal} == set(range(5))
        corner = CARDS[state.park[35]]
        assert corner.value == 2 and corner.tree == CARDS[state.park[0]].tree
        assert sum(c != EMPTY for c in state.park) == 6
        edge_cells = [c for c in range(36) if is_edge(c) and state.park[c] == EMPTY]
        assert len(edge_cells) == 18 and sorted(state.tiles) == edge_cells
    assert len(diagonals) > 1, "the value-1 cards are shuffled by the seed"


def test_av4_rows_sorted_by_value_with_draw_order_breaking_ties() -> None:
    twos = [c.id for c in CARDS if c.value == 2]
    nine = next(c.id for c in CARDS if c.value == 9)
    deck = [twos[2], nine, twos[0], twos[1]]  # drawn from the end: twos[1], twos[0], nine, ...
    assert draw_row(deck, 3) == [twos[1], twos[0], nine]
    assert deck == [twos[2]]


def test_av4_initial_order_is_dealt_by_the_seed_two_markers_each_with_two_players() -> None:
    orders = {tuple(new(2, f"seed-{i}", random_order=True).order) for i in range(20)}
    assert len(orders) > 1
    assert all(sorted(order) == [0, 0, 1, 1] for order in orders)
    assert new(4, "x", random_order=False).order == [0, 1, 2, 3]


def test_av4_slot_taken_sets_next_round_order() -> None:
    state = new(3)
    assert state.order == [0, 1, 2] and state.round == 1
    state = take_turn(state, slot=2)  # seat 0 takes the highest card
    state = take_turn(state, slot=0)  # seat 1 the lowest
    assert state.next_order == [1, -1, 0]
    upcoming = list(state.next_row)
    state = take_turn(state, slot=1)  # seat 2 the last one
    assert state.round == 2
    assert state.order == [1, 2, 0]
    assert state.row == upcoming
    assert GAME.to_act(state) == [1]
    assert state.phase == Phase.GARDENER


def test_av5_no_gardener_in_round_one() -> None:
    state = new(4)
    assert state.phase == Phase.CARD
    assert all(isinstance(m, ChooseCard) for m in GAME.legal_moves(state, 0))
    state = act(state, ChooseCard(slot=0))
    assert state.phase == Phase.CELL


def test_catalog_lists_the_card_data_as_json() -> None:
    import msgspec

    catalog = msgspec.json.decode(msgspec.json.encode(GAME.catalog()))
    assert len(catalog["cards"]) == 36 and len(catalog["projects"]) == 12
    assert catalog["cards"][35] == {
        "id": 35,
        "value": 10,
        "tree": "wild",
        "symbolic": False,
        "facilities": [],
        "action": "project",
    }
    assert len(catalog["tileAnimals"]) == 18
    assert GAME.kind == "TREE_LINED_AVENUE" and GAME.title == "The Tree Lined Avenue"
    assert (GAME.min_players, GAME.max_players) == (2, 4)
