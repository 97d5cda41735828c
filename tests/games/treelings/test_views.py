"""Hidden information (RULINGS ALL-4): only the draw pile's order is secret in Treelings."""

from __future__ import annotations

import random

import msgspec

from service.engine import Rng, encode_state, play, start
from service.games.treelings import GAME
from service.games.treelings.cards import CARDS, FESTIVAL
from service.games.treelings.state import State
from service.games.treelings.view import TREE_VIEWS, TreeView


def midgame(seed: str, players: int, decisions: int) -> State:
    chooser = random.Random(seed)
    state: State = start(GAME, players, None, seed).state
    for _ in range(decisions):
        seat = GAME.to_act(state)[0]
        move = chooser.choice(GAME.legal_moves(state, seat))
        state = play(GAME, state, seat, msgspec.to_builtins(move)).state
    return state


def reshuffled(state: State) -> State:
    """The same table with the hidden pile in another order and another rng state. The
    festival stays where TG-1 puts it: its depth is public."""
    other = msgspec.msgpack.decode(encode_state(state), type=State)
    guild = [c for c in other.pile if c != FESTIVAL]
    random.Random(7).shuffle(guild)
    if FESTIVAL in other.pile:
        depth = other.pile.index(FESTIVAL)
        guild.insert(depth, FESTIVAL)
    other.pile = guild
    other.rng = Rng(other.rng.state ^ 0xDEADBEEF)
    assert encode_state(other) != encode_state(state)
    return other


def test_pile_order_and_rng_change_no_view_and_no_legal_move() -> None:
    for players in (2, 4, 5):
        state = midgame(f"hidden-{players}", players, 12)
        other = reshuffled(state)
        for viewer in [None, *range(players)]:
            assert GAME.view(state, viewer) == GAME.view(other, viewer)
        for seat in range(players):
            assert GAME.legal_moves(state, seat) == GAME.legal_moves(other, seat)
        assert GAME.scores(state) == GAME.scores(other)


def test_views_hold_no_rng_and_no_pile_order() -> None:
    state = midgame("no-rng", 4, 9)
    for viewer in [None, 0, 1, 2, 3]:
        text = msgspec.json.encode(GAME.view(state, viewer)).decode()
        assert str(state.rng.state) not in text
        assert "rng" not in text.lower() and '"pile"' not in text
        view = GAME.view(state, viewer)
        assert view.draw_pile_count == len(state.pile) - 1
        assert view.cards_above_festival == len(state.pile) - 21


def test_everything_else_is_public_and_equal_for_every_seat() -> None:
    state = midgame("public", 3, 7)
    views = [msgspec.to_builtins(GAME.view(state, s)) for s in (None, 0, 1, 2)]
    for view in views:
        view.pop("viewer")
    assert all(v == views[0] for v in views)
    assert [len(d["trees"]) for d in views[0]["districts"]] == [len(d) for d in state.districts]


def test_registry_and_catalog() -> None:
    assert GAME.kind == "TREELINGS" and GAME.title == "Treelings"
    catalog = GAME.catalog()
    assert [c["name"] for c in catalog["colours"]] == [
        "blue",
        "green",
        "yellow",
        "brown",
        "purple",
        "red",
    ]
    assert catalog["guildCards"] == 108 and catalog["festivalDepth"] == 20
    msgspec.json.encode(catalog)


def test_shared_tree_views_cover_every_colour_and_height_a_tree_can_reach() -> None:
    for card, views in zip(CARDS.colours, TREE_VIEWS, strict=True):
        assert views == tuple(TreeView(colour=card.name, height=h) for h in range(card.count + 1))
