"""What a seat and a spectator see (RULINGS ALL-4, TL-13)."""

from __future__ import annotations

import random

import msgspec

from service.engine import IllegalMove, play, start
from service.games.treeline import GAME
from service.games.treeline.cards import GLADE_IDS, GLADES
from service.games.treeline.state import State, glade_at, rc

from .board import build, run

VIEWERS = [None, 0, 1, 2, 3]


def _json(obj: object) -> str:
    return msgspec.json.encode(obj).decode()


def _swap_hidden_glades(state: State) -> State:
    """The same table with different glades under the Town-side glade cards."""
    other = msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=State)
    hidden = [g for g in other.glades if not other.forest[g.cell]]
    unused = [k for k in range(len(GLADES)) if k not in [g.kind for g in other.glades]]
    for glade, kind in zip(hidden, unused, strict=False):
        glade.kind = kind
    return other


def test_tl13_views_moves_and_labels_never_depend_on_an_unflipped_glade() -> None:
    played = start(GAME, 4, {"fullGame": True}, "hidden")
    state, twin = played.state, _swap_hidden_glades(played.state)
    assert [g.kind for g in state.glades] != [g.kind for g in twin.glades]
    chooser = random.Random(7)
    while not GAME.is_over(state):
        assert GAME.to_act(state) == GAME.to_act(twin)
        for viewer in VIEWERS:
            masked = {g.cell for g in state.glades if state.forest[g.cell]}
            mine = GAME.view(state, viewer)
            theirs = GAME.view(twin, viewer)
            for cell in masked:  # a flipped glade is public and may differ between the twins
                mine.cells[cell].glade = theirs.cells[cell].glade = None
            assert _json(mine) == _json(theirs)
        seat = GAME.to_act(state)[0]
        moves = GAME.legal_moves(state, seat)
        assert moves == GAME.legal_moves(twin, seat)
        move = msgspec.to_builtins(chooser.choice(moves))
        one, two = play(GAME, state, seat, move), play(GAME, twin, seat, move)
        assert [s.label for s in one.steps] == [s.label for s in two.steps]
        assert [s.move for s in one.steps] == [s.move for s in two.steps]
        for step in one.steps:
            assert not any(g in _json(step.move) + step.label for g in GLADE_IDS)
        state, twin = one.state, two.state


def test_tl13_a_town_side_glade_shows_only_that_it_is_a_glade() -> None:
    state = build("S Tg T1\nT1 T1 T1\nT1 Fg S", glades=("largestGroup", "lonely"))
    for viewer in [None, 0, 1]:
        view = GAME.view(state, viewer)
        text = _json(view)
        assert "largestGroup" not in text and "lonely" in text
        assert view.cells[1].kind == "glade" and view.cells[1].glade is None
        assert view.cells[7].glade == "lonely" and view.cells[7].forest


def test_tl13_rejections_and_setup_errors_name_no_glade() -> None:
    state = start(GAME, 2, {"fullGame": True}, "errors").state
    hidden = [rc(state, g.cell) for g in state.glades]
    attempts = [
        {"type": "reforest", "row": hidden[0][0], "col": hidden[0][1], "toward": "right"},
        {"type": "deployCard", "row": hidden[0][0], "col": hidden[0][1]},
        {"type": "energize", "row": 0, "col": 0},
        {"type": "stationToken", "row": 9, "col": 9, "energized": True},
    ]
    for seat in (0, 1):
        for move in attempts:
            try:
                play(GAME, state, seat, move)
            except IllegalMove as exc:
                assert not any(g in exc.message for g in GLADE_IDS)
                assert not any(g.name in exc.message for g in GLADES)


def test_all4_no_view_contains_the_rng_state() -> None:
    state = start(GAME, 3, {"fullGame": True, "strategicStart": True}, "rng").state
    for viewer in [None, 0, 1, 2]:
        text = _json(GAME.view(state, viewer))
        assert str(state.rng.state) not in text and "rng" not in text.lower()


def test_views_show_everything_on_the_table() -> None:
    state = build(
        """
        S     F2:aA  T1    T2
        Fg    T1     T1    T1
        F3:bB T1     T1    S
        """,
        glades=("diagonal",),
        stationed={0: ["a"]},
    )
    state, _ = run(
        state,
        (0, {"type": "reforest", "row": 0, "col": 2, "toward": "right"}),
        (0, {"type": "deployCard", "row": 0, "col": 3}),
    )
    for viewer in [None, 0, 1]:
        view = GAME.view(state, viewer)
        assert view.viewer == viewer and view.phase == "deploySource"
        assert view.pending is not None and view.pending.seat == 0
        assert view.pending.card == (0, 3) and view.pending.spaces_left == 2
        assert view.flipped_this_turn == [(0, 2), (0, 3)] and view.deployed_this_turn == [(0, 3)]
        assert [(t.seat, t.energized) for t in view.cells[1].tokens] == [(0, False), (0, True)]
        assert [(t.seat, t.energized) for t in view.cells[8].tokens] == [(1, False), (1, True)]
        assert view.cells[4].glade == "diagonal" and view.cells[4].kind == "glade"
        assert view.cells[0].kind == "start" and view.cells[0].spaces == 0
        assert view.castles[0].owner == 0 and view.castles[0].letter == "A"
        assert [(s.supply, s.on_cards, s.stationed) for s in view.seats] == [(8, 2, 1), (9, 2, 0)]
        assert view.town_cards == 5 and view.active_seat == 0 and view.end_reason is None
    assert glade_at(state, 4) is not None
