"""One scripted test (or a few) per Treelings ruling TG-1..TG-8, on hand-built positions."""

from __future__ import annotations

import msgspec
import pytest

from service.engine import BadSetup, Rng, play, start
from service.games.treelings import GAME
from service.games.treelings.cards import COLOUR_INDEX, COLOURS, FESTIVAL
from service.games.treelings.rules import plant_dealt
from service.games.treelings.scoring import neighbours
from service.games.treelings.state import Place, TakeColour, TakeSingletons
from tests.games.treelings.tables import ALL_SIX, market, table, trees


def wire(move: msgspec.Struct) -> object:
    return msgspec.to_builtins(move)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_tg1_setup_has_108_cards_and_festival_under_exactly_20(players: int) -> None:
    state = start(GAME, players, None, f"tg1-{players}").state
    assert state.pile.index(FESTIVAL) == 20
    assert state.pile.count(FESTIVAL) == 1
    guild = [c for c in state.pile if c != FESTIVAL]
    assert len(guild) == 108 - 3 * players - 5
    dealt = sum(t.height for d in state.districts for t in d)
    assert dealt == 3 * players
    assert sum(state.market) == 5
    per_colour = [guild.count(c) + state.market[c] for c in range(6)]
    for d in state.districts:
        for t in d:
            per_colour[t.colour] += t.height
    assert per_colour == [18] * 6


@pytest.mark.parametrize("players", [1, 6])
def test_tg1_only_two_to_five_players(players: int) -> None:
    with pytest.raises(BadSetup):
        start(GAME, players, None, "x")


def test_tg2_dealt_cards_form_trees_in_deal_order() -> None:
    blue, green, red = (COLOUR_INDEX[c] for c in ("blue", "green", "red"))
    planted = plant_dealt([green, blue, green])
    assert [(COLOURS[t.colour], t.height) for t in planted] == [("green", 2), ("blue", 1)]
    assert [(t.colour, t.height) for t in plant_dealt([red, red, red])] == [(red, 3)]
    assert [t.colour for t in plant_dealt([red, green, blue])] == [red, green, blue]


def test_tg2_setup_deals_one_card_at_a_time_from_the_start_seat() -> None:
    seed = "tg2"
    state = start(GAME, 3, {"startSeat": 1}, seed).state
    deck = [colour for colour in range(6) for _ in range(18)]
    Rng.from_seed(seed).shuffle(deck)
    top = deck[::-1]  # the deck is dealt from its end
    for offset, seat in enumerate([1, 2, 0]):
        cards = [top[offset], top[offset + 3], top[offset + 6]]
        assert state.districts[seat] == plant_dealt(cards)


def test_tg3_festival_is_set_aside_and_filling_goes_on() -> None:
    state = table(
        [ALL_SIX, ALL_SIX, ALL_SIX],
        market={"green": 2, "yellow": 1, "brown": 1, "purple": 1},
        pile=["blue"] * 20 + ["festival", "red"],
    )
    state = play(GAME, state, 0, wire(TakeColour(colour="green"))).state
    # Seat 1's turn starts by filling: red, then the festival (aside), then a blue.
    assert state.seat == 1
    assert market(state) == {"yellow": 1, "brown": 1, "purple": 1, "red": 1, "blue": 1}
    assert state.festival_revealed and state.festival_seat == 1
    assert FESTIVAL not in state.pile and len(state.pile) == 19
    view = GAME.view(state, 0)
    assert view.final_round and view.turns_left == 2 and view.festival_seat == 1


def test_tg3_empty_pile_leaves_the_market_short() -> None:
    state = table(
        [ALL_SIX, ALL_SIX],
        market={"green": 3, "yellow": 2},
        pile=["red"],
    )
    state = play(GAME, state, 0, wire(TakeColour(colour="green"))).state
    assert state.seat == 1 and not state.over
    assert market(state) == {"yellow": 2, "red": 1}
    assert state.pile == []


def test_tg3_market_is_filled_at_setup() -> None:
    for seed in ("a", "b", "c"):
        state = start(GAME, 5, None, seed).state
        assert sum(state.market) == 5 and not state.festival_revealed


def test_tg4_rulebook_market_example_options() -> None:
    state = table(
        [[("red", 1)], ALL_SIX],
        market={"blue": 2, "green": 1, "yellow": 1, "brown": 1},
    )
    assert GAME.legal_moves(state, 0) == [
        TakeColour(colour="blue"),
        TakeColour(colour="green"),
        TakeColour(colour="yellow"),
        TakeColour(colour="brown"),
        TakeSingletons(),
    ]
    assert GAME.legal_moves(state, 1) == []


def test_tg4_singletons_take_every_singleton_together() -> None:
    state = table(
        [[("green", 1), ("yellow", 2), ("brown", 1)], ALL_SIX],
        market={"blue": 2, "green": 1, "yellow": 1, "brown": 1},
        pile=["red"] * 10,
    )
    played = play(GAME, state, 0, wire(TakeSingletons()))
    assert played.steps[0].label == "takes one each of green, yellow, brown"
    assert trees(played.state, 0) == [("green", 2), ("yellow", 3), ("brown", 2)]
    assert market(played.state) == {"blue": 2, "red": 3}
    assert played.state.seat == 1


def test_tg4_take_colour_takes_all_of_it_and_no_subset_of_singletons() -> None:
    state = table(
        [ALL_SIX, ALL_SIX],
        market={"blue": 3, "green": 1, "yellow": 1},
        pile=["red"] * 10,
    )
    moves = GAME.legal_moves(state, 0)
    assert TakeSingletons() in moves and len(moves) == 4
    played = play(GAME, state, 0, wire(TakeColour(colour="blue")))
    assert played.steps[0].label == "takes 3 blue"
    assert trees(played.state, 0)[0] == ("blue", 4)


def test_tg4_a_single_singleton_is_only_a_colour_take() -> None:
    state = table([ALL_SIX, ALL_SIX], market={"blue": 3, "green": 2, "yellow": 1})
    assert GAME.legal_moves(state, 0) == [
        TakeColour(colour="blue"),
        TakeColour(colour="green"),
        TakeColour(colour="yellow"),
    ]


def test_tg5_new_colours_are_placed_one_by_one_at_a_chosen_end() -> None:
    state = table(
        [[("green", 2)], ALL_SIX],
        market={"blue": 1, "red": 1, "green": 1, "yellow": 2},
        pile=["purple"] * 10,
    )
    state = play(GAME, state, 0, wire(TakeSingletons())).state
    # The green joins its tree at once; blue and red wait for a side each.
    assert trees(state, 0) == [("green", 3)]
    assert GAME.to_act(state) == [0]
    assert GAME.legal_moves(state, 0) == [
        Place(colour="blue", side="left"),
        Place(colour="blue", side="right"),
        Place(colour="red", side="left"),
        Place(colour="red", side="right"),
    ]
    assert GAME.view(state, 1).to_place[0].colour == "blue"
    played = play(GAME, state, 0, wire(Place(colour="red", side="left")))
    assert played.steps[0].label == "starts a red tree of 1 on the left"
    state = played.state
    assert trees(state, 0) == [("red", 1), ("green", 3)]
    # The last new colour still has two sides to choose from: not forced.
    assert GAME.legal_moves(state, 0) == [
        Place(colour="blue", side="left"),
        Place(colour="blue", side="right"),
    ]
    state = play(GAME, state, 0, wire(Place(colour="blue", side="left"))).state
    assert trees(state, 0) == [("blue", 1), ("red", 1), ("green", 3)]
    assert state.seat == 1 and market(state) == {"yellow": 2, "purple": 3}


def test_tg5_order_of_placement_decides_the_layout() -> None:
    state = table(
        [[("green", 1)], ALL_SIX],
        market={"blue": 1, "red": 1, "yellow": 3},
        pile=["purple"] * 10,
    )
    for move in (
        TakeSingletons(),
        Place(colour="blue", side="right"),
        Place(colour="red", side="right"),
    ):
        state = play(GAME, state, 0, wire(move)).state
    assert trees(state, 0) == [("green", 1), ("blue", 1), ("red", 1)]


def test_tg5_a_take_of_known_colours_ends_the_turn_without_placement() -> None:
    state = table(
        [[("blue", 1), ("green", 1)], ALL_SIX],
        market={"blue": 2, "green": 1, "yellow": 2},
        pile=["purple"] * 10,
    )
    played = play(GAME, state, 0, wire(TakeColour(colour="blue")))
    assert len(played.steps) == 1 and played.state.seat == 1
    assert trees(played.state, 0) == [("blue", 3), ("green", 1)]


def test_tg6_final_round_ends_before_the_start_seat_plays_again() -> None:
    state = table(
        [ALL_SIX, ALL_SIX, ALL_SIX],
        market={"green": 2, "yellow": 1, "brown": 1, "purple": 1},
        pile=["blue"] * 20 + ["festival", "red"],
        seat=1,
        start_seat=1,
    )
    state = play(GAME, state, 1, wire(TakeColour(colour="green"))).state
    assert state.festival_revealed and state.seat == 2
    assert GAME.view(state, None).turns_left == 2
    state = play(GAME, state, 2, wire(TakeColour(colour="yellow"))).state
    assert state.seat == 0 and not state.over
    assert GAME.view(state, None).turns_left == 1
    state = play(GAME, state, 0, wire(TakeColour(colour="brown"))).state
    assert state.over and GAME.to_act(state) == []
    assert GAME.legal_moves(state, 1) == []
    assert GAME.view(state, None).phase == "over"


def test_tg6_festival_at_the_start_seats_turn_gives_a_whole_final_round() -> None:
    state = table(
        [ALL_SIX, ALL_SIX],
        market={"green": 2, "yellow": 3},
        pile=["blue"] * 20 + ["festival", "red", "red"],
        seat=1,
        start_seat=0,
    )
    state = play(GAME, state, 1, wire(TakeColour(colour="yellow"))).state
    assert state.festival_revealed and state.seat == 0 and state.festival_seat == 0
    assert market(state) == {"green": 2, "red": 2, "blue": 1}
    assert GAME.view(state, None).turns_left == 2
    state = play(GAME, state, 0, wire(TakeColour(colour="green"))).state
    assert state.seat == 1 and not state.over
    state = play(GAME, state, 1, wire(TakeColour(colour="red"))).state
    assert state.over


def test_gap_empty_pile_and_market_end_the_game() -> None:
    state = table(
        [ALL_SIX, ALL_SIX, ALL_SIX],
        market={"green": 2},
        pile=[],
        seat=1,
        festival_revealed=True,
    )
    # A single colour is a forced take (ALL-3); then seat 2 would face an empty market.
    state = play(GAME, state, 1, wire(TakeColour(colour="green"))).state
    assert state.over and GAME.to_act(state) == []
    assert GAME.scores(state).final


def test_tg7_ends_of_a_district_face_the_neighbouring_seats() -> None:
    state = table(
        [
            [("blue", 1), ("green", 2), ("red", 3)],
            [("yellow", 4), ("brown", 5)],
            [("purple", 6)],
        ]
    )
    assert neighbours(state, 0, 0) == (6, 2)  # seat 2's rightmost on the left
    assert neighbours(state, 0, 2) == (2, 4)  # seat 1's leftmost on the right
    assert neighbours(state, 1, 0) == (3, 5)
    assert neighbours(state, 1, 1) == (4, 6)
    assert neighbours(state, 2, 0) == (5, 1)  # a single tree faces both neighbouring seats


def test_tg7_with_two_players_both_ends_face_the_other_seat() -> None:
    state = table([[("blue", 2), ("green", 5), ("red", 3)], [("yellow", 4), ("brown", 1)]])
    assert neighbours(state, 0, 0) == (1, 5)
    assert neighbours(state, 0, 2) == (5, 4)
    assert neighbours(state, 1, 0) == (3, 1)
    assert neighbours(state, 1, 1) == (4, 2)
    single = table([[("blue", 3)], [("red", 2)]])
    assert neighbours(state=single, seat=0, index=0) == (2, 2)
    assert neighbours(state=single, seat=1, index=0) == (3, 3)


def test_tg8_a_tree_scores_if_at_least_as_tall_as_both_neighbours() -> None:
    state = table([[("blue", 3), ("green", 3), ("red", 2)], [("yellow", 3), ("brown", 1)]])
    entries = GAME.scores(state).entries
    assert [i.points for i in entries[0].breakdown] == [3, 3, 0]
    assert [i.points for i in entries[1].breakdown] == [3, 0]
    first, last = entries[0].breakdown[0], entries[0].breakdown[2]
    assert (first.source, first.id, first.seat) == ("tree", "blue", 0)
    assert [(t.name, t.value) for t in last.terms] == [("height", 2), ("left", 3), ("right", 3)]
    assert "scores" in entries[0].breakdown[0].detail
    assert "blocked" in entries[0].breakdown[2].detail
    assert (entries[0].points, entries[1].points) == (6, 3)


def test_tg8_tie_goes_to_more_scoring_trees_then_shared() -> None:
    # Seat 0: 2 + 2 = 4 from two trees; seat 1: one tree of 4; seat 2: two trees 2 + 2.
    state = table(
        [
            [("blue", 2), ("green", 1), ("red", 2)],
            [("yellow", 1), ("brown", 4)],
            [("brown", 1), ("purple", 2), ("blue", 1), ("green", 2)],
        ],
        over=True,
    )
    scores = GAME.scores(state)
    assert [e.points for e in scores.entries] == [4, 4, 4]
    assert [e.tiebreak for e in scores.entries] == [[2], [1], [2]]
    assert scores.final and scores.winners == [0, 2]


def test_live_scores_name_no_winner_before_the_end() -> None:
    state = table([[("blue", 2)], [("red", 1)]])
    scores = GAME.scores(state)
    assert not scores.final and scores.winners == []
    assert [e.points for e in scores.entries] == [2, 0]


def test_rulebook_example_matilda_and_kyra() -> None:
    """The rulebook's diagrams are omitted, so this table is built to match its text:
    Matilda (seat 0) scores 8, her outer trees being taller than or as tall as the outermost
    trees of her neighbours (one equal); Kyra (seat 1, on Matilda's right) scores 5 and her
    rightmost tree is blocked by the taller leftmost tree of the player on her right."""
    state = table(
        [
            [("blue", 3), ("green", 2), ("red", 5)],  # Matilda
            [("yellow", 2), ("brown", 5), ("purple", 1), ("blue", 4)],  # Kyra
            [("green", 6), ("red", 3)],  # the player on Kyra's right
        ]
    )
    matilda, kyra, _ = GAME.scores(state).entries
    assert matilda.points == 8
    assert [i.points for i in matilda.breakdown] == [3, 0, 5]
    assert kyra.points == 5
    assert [i.points for i in kyra.breakdown] == [0, 5, 0, 0]
    assert "neighbours 1 (left) and 6 (right): blocked" in kyra.breakdown[3].detail
