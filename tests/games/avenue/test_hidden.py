"""Hidden information (ALL-4, AV-9): other seats' project cards, the project pile and the deck
order never reach a seat before the end; every project card is revealed after it."""

from __future__ import annotations

import random

import msgspec
import pytest

from service.engine import IllegalMove, encode_state, play, start
from service.engine.play import copy_state
from service.games.avenue import GAME
from service.games.avenue.state import State


def disguise(state: State, viewer: int | None, chooser: random.Random) -> State:
    """Change only what `viewer` may not see: the deck order, the rng, and which project cards
    the other seats and the pile hold (each keeps its count)."""
    other: State = copy_state(GAME, state)
    chooser.shuffle(other.deck)
    other.rng.state ^= 0x5DEECE66D
    seats = [s for s in range(state.players) if s != viewer]
    pool = [p for s in seats for p in other.projects[s]] + other.project_deck
    chooser.shuffle(pool)
    for s in seats:
        n = len(other.projects[s])
        other.projects[s], pool = pool[:n], pool[n:]
    other.project_deck = pool
    return other


def public(state: State, viewer: int | None) -> bytes:
    seat = GAME.to_act(state)[0]
    moves = GAME.legal_moves(state, seat)
    return msgspec.json.encode(
        {
            "view": GAME.view(state, viewer),
            "scores": GAME.scores(state),
            "moves": moves if seat == viewer else len(moves),
            "labels": [GAME.label(state, seat, m) for m in moves],
        }
    )


def outcome(state: State, seat: int, move: object) -> tuple[str, ...]:
    try:
        steps = play(GAME, state, seat, move).steps
    except IllegalMove as exc:
        return exc.code, exc.message
    return tuple(s.label for s in steps)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_all4_hidden_cards_never_reach_a_view_label_or_error_before_the_end(
    players: int,
) -> None:
    chooser = random.Random(players)
    state: State = start(GAME, players, None, f"hidden-{players}").state
    steps = 0
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        for viewer in [None, *range(players)]:
            other = disguise(state, viewer, chooser)
            assert encode_state(other) != encode_state(state) or viewer is None
            assert public(other, viewer) == public(state, viewer)
            tries = ({"type": "chooseCard", "slot": 7}, {"type": "drawProject"}, {"type": "x"})
            for who in {seat, (seat + 1) % players}:
                for move in tries:
                    assert outcome(other, who, move) == outcome(state, who, move)
        move = msgspec.to_builtins(chooser.choice(GAME.legal_moves(state, seat)))
        viewer = (seat + 1) % players
        mine = play(GAME, state, seat, move)
        theirs = play(GAME, disguise(state, viewer, chooser), seat, move)
        assert [s.label for s in mine.steps] == [s.label for s in theirs.steps]
        state = mine.state
        steps += 1
    assert steps > 60


def test_all4_views_never_carry_the_rng() -> None:
    state: State = start(GAME, 4, None, "rng").state
    for viewer in [None, 0, 1, 2, 3]:
        wire = msgspec.to_builtins(GAME.view(state, viewer))
        assert "rng" not in wire and str(state.rng.state) not in msgspec.json.encode(wire).decode()
        assert wire["deckSize"] == len(state.deck) and "deck" not in wire


def test_av9_own_projects_visible_others_only_counted_then_all_revealed() -> None:
    from tests.conformance import playout

    state: State = start(GAME, 3, None, "reveal").state
    view = GAME.view(state, 1)
    assert view.seats[1].projects == state.projects[1]
    assert [s.projects for s in view.seats if s.seat != 1] == [None, None]
    assert [s.project_count for s in view.seats] == [2, 2, 2]
    assert GAME.view(state, None).seats[0].projects is None
    final, _ = playout(GAME, 3, "reveal", try_every_move=False)
    for viewer in (None, 0):
        seats = GAME.view(final, viewer).seats
        assert [s.projects for s in seats] == final.projects
    sources = [i.source for e in GAME.scores(final).entries for i in e.breakdown]
    assert sources.count("project") == sum(len(p) for p in final.projects)
