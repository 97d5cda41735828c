"""The turn and its decisions (AV-5), the card actions (AV-6), the end of the game (AV-7)."""

from __future__ import annotations

from service.games.avenue import GAME
from service.games.avenue.cards import CARDS
from service.games.avenue.rules import EMPTY, tiles_on
from service.games.avenue.state import (
    CarryTile,
    ChooseCard,
    DrawProject,
    ExtraTile,
    ExtraTileTo,
    Phase,
    PlaceCard,
    PlaceGardener,
    Redraw,
    RelocateGardener,
    RelocateTo,
    SkipAction,
    SkipGardener,
    StopTaking,
    TakeTile,
)
from tests.games.avenue.helpers import act, labels, new, put_in_row, round_two, take_turn

RELOCATE, PROJECT, REDRAW, ANIMAL = 3, 5, 9, 11  # zelkova 5, zelkova 8, birch 4, birch 6
SQUIRREL, DUCK, FOX, DEER = 0, 6, 11, 15  # the first tile id of each animal


def park_tiles(state: object, placement: dict[int, int], rest: int = 0) -> None:
    """Tiles by id -> cell; every other tile goes to `rest`."""
    tiles = state.tiles  # type: ignore[attr-defined]
    for t in range(len(tiles)):
        tiles[t] = placement.get(t, rest)


def test_av5_card_goes_next_to_a_placed_card_and_picks_up_the_tile_there() -> None:
    state = new(3)
    state = act(state, ChooseCard(slot=0))
    cells = {m.cell for m in GAME.legal_moves(state, 0) if isinstance(m, PlaceCard)}
    assert cells == {1, 6, 8, 13, 15, 20, 22, 27, 29, 34}
    tile = state.tiles.index(1)
    card = state.row[0]
    state = act(state, PlaceCard(cell=1))
    assert state.park[1] == card and state.tiles[tile] == 1
    assert GAME.view(state, None).tiles[tile].owner == -1


def test_av5_gardener_takes_two_unowned_tiles_from_its_lines_and_keeps_those_on_its_card() -> None:
    state = round_two()
    # Row 2 / column 2 through cell 7: tiles on empty edge cells 6 and 1 and 31; a deer on 7.
    park_tiles(state, {SQUIRREL: 6, DUCK: 1, FOX: 31, DEER: 7}, rest=0)
    state.gardeners[1][0] = 14  # another seat's gardener: its card is no longer free
    options = GAME.legal_moves(state, 0)
    assert PlaceGardener(cell=7) in options and SkipGardener() in options
    assert PlaceGardener(cell=14) not in options
    state = act(state, PlaceGardener(cell=7))
    assert state.phase == Phase.TILES
    assert GAME.legal_moves(state, 0) == [
        TakeTile(cell=1, animal="duck"),
        TakeTile(cell=6, animal="squirrel"),
        TakeTile(cell=31, animal="fox"),
        StopTaking(),
    ]
    state = act(state, TakeTile(cell=6, animal="squirrel"))
    state = act(state, TakeTile(cell=31, animal="fox"))
    assert state.phase == Phase.CARD, "two tiles at most"
    assert sorted(tiles_on(state, 7)) == [SQUIRREL, FOX, DEER]
    assert state.tiles[DUCK] == 1


def test_av5_tiles_on_other_gardeners_cards_are_not_taken() -> None:
    state = round_two()
    park_tiles(state, {SQUIRREL: 6, DUCK: 21}, rest=0)
    state.gardeners[1][0] = 21  # row 4, column 4: not in cell 7's lines anyway
    state.gardeners[2][0] = 1  # on the column of cell 7, with no tile
    state.tiles[FOX] = 1
    state = act(state, PlaceGardener(cell=7))
    # The fox on cell 1 belongs to seat 2; only the squirrel is left, so the step is a choice.
    assert GAME.legal_moves(state, 0) == [TakeTile(cell=6, animal="squirrel"), StopTaking()]


def test_av5_no_gardener_step_once_all_are_placed() -> None:
    state = round_two()
    state.gardeners[0] = [0, 35]
    state.phase = Phase.CARD
    state = take_turn(state)
    assert GAME.to_act(state) == [1] and state.phase == Phase.GARDENER


def test_av5_token_takes_the_chosen_slot() -> None:
    state = new(4)
    state = take_turn(state, slot=3)
    assert state.next_order == [-1, -1, -1, 0] and state.row[3] == EMPTY


def test_av6_relocate_carries_two_tiles_and_leaves_the_rest_unowned() -> None:
    state = round_two()
    state.gardeners[0] = [7, EMPTY]
    state.phase = Phase.CARD
    park_tiles(state, {SQUIRREL: 7, SQUIRREL + 1: 7, DEER: 7, DUCK: 14}, rest=0)
    put_in_row(state, 0, RELOCATE)
    state = act(state, ChooseCard(slot=0))
    state = act(state, PlaceCard(cell=8))
    assert GAME.legal_moves(state, 0) == [RelocateGardener(cell=7), SkipAction()]
    state = act(state, RelocateGardener(cell=7))
    targets = [m.cell for m in GAME.legal_moves(state, 0) if isinstance(m, RelocateTo)]
    assert targets == [0, 8, 14, 21, 28, 35]
    state = act(state, RelocateTo(cell=14))
    assert state.phase == Phase.CARRY
    state = act(state, CarryTile(animal="deer"))
    state = act(state, CarryTile(animal="squirrel"))
    assert state.gardeners[0] == [14, EMPTY]
    assert sorted(tiles_on(state, 14)) == [SQUIRREL, DUCK, DEER]  # the duck there joins it
    assert tiles_on(state, 7) == [SQUIRREL + 1]
    assert GAME.view(state, None).tiles[SQUIRREL + 1].owner == -1
    assert GAME.to_act(state) == [1], "carrying two tiles ends the turn"


def test_av6_relocate_without_a_placed_gardener_is_skipped() -> None:
    state = new(3)
    put_in_row(state, 0, RELOCATE)
    state = act(state, ChooseCard(slot=0))
    state = act(state, PlaceCard(cell=1))
    assert GAME.to_act(state) == [1] and state.phase == Phase.CARD


def test_av6_extra_tile_from_anywhere_unowned_to_a_chosen_gardener() -> None:
    state = round_two(2)
    state.gardeners[0] = [7, 14, EMPTY]
    state.gardeners[1] = [21, EMPTY, EMPTY]
    state.phase = Phase.CARD
    park_tiles(state, {SQUIRREL: 7, DUCK: 21, FOX: 5, DEER: 0}, rest=14)
    put_in_row(state, 0, ANIMAL)
    state = act(state, ChooseCard(slot=0))
    state = act(state, PlaceCard(cell=8))
    # Tiles on cells 7, 14 (own gardeners) and 21 (the rival's) are owned.
    assert GAME.legal_moves(state, 0) == [
        ExtraTile(cell=0, animal="deer"),
        ExtraTile(cell=5, animal="fox"),
        SkipAction(),
    ]
    state = act(state, ExtraTile(cell=5, animal="fox"))
    assert GAME.legal_moves(state, 0) == [ExtraTileTo(cell=7), ExtraTileTo(cell=14)]
    state = act(state, ExtraTileTo(cell=7))
    assert state.tiles[FOX] == 7


def test_av6_redraw_returns_chosen_next_round_cards_and_resorts_the_row() -> None:
    state = new(4, "redraw")
    put_in_row(state, 0, REDRAW)
    state = act(state, ChooseCard(slot=0))
    state = act(state, PlaceCard(cell=1))
    options = GAME.legal_moves(state, 0)
    assert len(options) == 15 + 1  # every non-empty subset of four cards, or skip
    kept = state.next_row[1]
    deck_size = len(state.deck)
    returned = [state.next_row[0], state.next_row[2], state.next_row[3]]
    text = labels(state, Redraw(slots=(0, 2, 3)))
    assert text == [f"redraws {', '.join(_names(returned))} from the next row"]
    state = act(state, Redraw(slots=(0, 2, 3)))
    assert kept in state.next_row and len(state.next_row) == 4
    assert len(state.deck) == deck_size
    values = [CARDS[c].value for c in state.next_row]
    assert values == sorted(values)
    assert set(state.next_row) | set(state.deck) >= set(returned)


def test_av6_redraw_with_an_empty_deck_is_skipped() -> None:
    state = new(4, "redraw")
    state.deck, state.next_row = [], state.next_row + state.deck
    put_in_row(state, 0, REDRAW)
    state = act(state, ChooseCard(slot=0))
    state = act(state, PlaceCard(cell=1))
    assert GAME.to_act(state) == [1] and state.phase == Phase.CARD


def _names(cards: list[int]) -> list[str]:
    from service.games.avenue.cards import card_name

    return [card_name(c) for c in cards]


def test_av6_new_project_draws_one_secretly() -> None:
    state = new(3)
    put_in_row(state, 0, PROJECT)
    state = act(state, ChooseCard(slot=0))
    state = act(state, PlaceCard(cell=1))
    top = state.project_deck[-1]
    assert labels(state, DrawProject()) == ["draws a project card"]
    state = act(state, DrawProject())
    assert state.projects[0][-1] == top and len(state.projects[0]) == 3


def test_av6_new_project_with_an_empty_pile_is_skipped() -> None:
    state = new(3)
    state.project_deck = []
    put_in_row(state, 0, PROJECT)
    state = act(state, ChooseCard(slot=0))
    state = act(state, PlaceCard(cell=1))
    assert GAME.to_act(state) == [1]


def test_av7_short_last_round_skips_turns_and_the_36th_card_ends_after_its_action() -> None:
    state = new(4)
    while state.round < 8:
        assert len(state.row) == 4
        state = take_turn(state)
    assert len(state.row) == 2 and state.deck == [] and state.next_row == []
    second = state.order[1]
    if PROJECT not in state.row:
        where = state.park.index(PROJECT)
        state.park[where], state.row[1] = state.row[1], PROJECT
    state.row.sort(key=lambda card: card == PROJECT)
    state = take_turn(state, slot=0)
    assert GAME.to_act(state) == [second] and state.phase == Phase.GARDENER
    state = act(state, SkipGardener())  # the last card and the last cell are forced (ALL-3)
    assert EMPTY not in state.park
    assert state.phase == Phase.ACTION, "the last turn is fully finished"
    state = act(state, DrawProject())
    assert GAME.is_over(state) and GAME.to_act(state) == []
    assert state.next_order[2:] == [EMPTY, EMPTY], "the third and fourth tokens never played"
