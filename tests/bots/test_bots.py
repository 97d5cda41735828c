"""The bots (service.bots): legal, blind to hidden information, reproducible, and
able to play whole games through play_bots."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from service.bots import STRATEGIES, play_bots, suggest
from service.engine import Rng, encode_state, start
from service.games import games

from .positions import KINDS, OPTIONS, disguise, hidden_parts_differ, positions, same_view

SEARCH_ITERATIONS = 12
# Positions apart, so that each kind gives some 25 positions per game.
EVERY = {"TREELINE": 6, "TREELINGS": 2, "TREETOPIA": 14, "TREE_LINED_AVENUE": 4}


def kind_game(kind: str) -> Any:
    return games()[kind]


@pytest.mark.parametrize("kind", KINDS)
def test_suggested_moves_are_legal_for_every_strategy_in_many_states(kind: str) -> None:
    game = kind_game(kind)
    checked, every = 0, EVERY.get(kind, 2)
    for players in (2, 3):
        for n, state in enumerate(positions(game, players, f"legal-{players}", every=every)):
            seat = game.to_act(state)[0]
            legal = game.legal_moves(state, seat)
            for strategy in STRATEGIES:
                move = suggest(game, state, seat, strategy, seed=n, iterations=SEARCH_ITERATIONS)
                assert move in legal, (strategy, move)
                checked += 1
    assert checked >= 100


@pytest.mark.parametrize("kind", KINDS)
def test_suggestions_ignore_hidden_parts_the_seat_cannot_see(kind: str) -> None:
    game = kind_game(kind)
    changed = 0
    for n, state in enumerate(positions(game, 2, f"blind-{kind}", every=5)):
        seat = game.to_act(state)[0]
        twin = disguise(game, state, seat, salt=n)
        assert same_view(game, state, twin, seat), "the disguise changed what the seat sees"
        changed += hidden_parts_differ(game, state, twin)
        for strategy in STRATEGIES:
            mine = suggest(game, state, seat, strategy, seed=n, iterations=SEARCH_ITERATIONS)
            theirs = suggest(game, twin, seat, strategy, seed=n, iterations=SEARCH_ITERATIONS)
            assert mine == theirs, (strategy, n)
        if n >= 12:
            break
    assert changed >= 5


@pytest.mark.parametrize("kind", KINDS)
def test_determinize_depends_only_on_the_view_and_the_rng(kind: str) -> None:
    game = kind_game(kind)
    for n, state in enumerate(positions(game, 3, f"sample-{kind}", every=9)):
        seat = game.to_act(state)[0]
        twin = disguise(game, state, seat, salt=n)
        one = game.determinize(state, seat, Rng(n))
        two = game.determinize(twin, seat, Rng(n))
        assert encode_state(one) == encode_state(two)
        for viewer in (seat, None):
            if viewer is not None:
                assert same_view(game, one, state, viewer)
        assert encode_state(state) != encode_state(one) or game.is_over(state)
        if n >= 10:
            break


@pytest.mark.parametrize("kind", KINDS)
def test_same_seed_and_iterations_give_the_same_move(kind: str) -> None:
    game = kind_game(kind)
    for n, state in enumerate(positions(game, 2, f"repeat-{kind}", every=11)):
        seat = game.to_act(state)[0]
        for strategy in STRATEGIES:
            first = suggest(game, state, seat, strategy, seed=42, iterations=30)
            again = suggest(game, state, seat, strategy, seed=42, iterations=30)
            assert msgspec.to_builtins(first) == msgspec.to_builtins(again)
        if n >= 4:
            break


@pytest.mark.parametrize("kind", KINDS)
def test_a_game_of_bots_only_runs_to_the_end_through_play_bots(kind: str) -> None:
    game = kind_game(kind)
    state = start(game, 2, OPTIONS.get(kind), f"bots-{kind}").state
    played = play_bots(game, state, {0: "GREEDY", 1: "RANDOM"}, seed=1, iterations=1)
    assert game.is_over(played.state)
    assert game.to_act(state), "play_bots left the given state untouched"
    assert sum(1 for s in played.steps if not s.forced) > 10
    assert {s.seat for s in played.steps} == {0, 1}


def test_play_bots_stops_when_a_human_seat_is_to_act() -> None:
    game = kind_game("TREELINGS")
    state = start(game, 3, None, "human").state
    played = play_bots(game, state, {1: "SEARCH", 2: "GREEDY"}, seed=5, iterations=10)
    assert played.steps == [] and played.state is state  # seat 0 (a human) starts
    after = play_bots(game, _one_move(game, state), {1: "SEARCH", 2: "GREEDY"}, seed=5)
    assert game.to_act(after.state) == [0]
    assert {s.seat for s in after.steps} == {1, 2}


def _one_move(game: Any, state: Any) -> Any:
    from service.engine import play

    while game.to_act(state) == [0]:
        move = game.legal_moves(state, 0)[0]
        state = play(game, state, 0, msgspec.to_builtins(move)).state
    return state


@pytest.mark.parametrize("kind", KINDS)
def test_a_deadline_stops_the_search_between_iterations(kind: str) -> None:
    """A deadline that expires after k checks (a stand-in for the clock) runs k iterations:
    the same move as iterations=k, and no check is made after it expired."""
    game = kind_game(kind)
    for n, state in enumerate(positions(game, 2, f"deadline-{kind}", every=13)):
        seat = game.to_act(state)[0]
        checks: list[int] = []

        def deadline(checks: list[int] = checks) -> bool:
            checks.append(1)
            return len(checks) > 7

        by_deadline = suggest(game, state, seat, "SEARCH", seed=n, deadline=deadline)
        by_count = suggest(game, state, seat, "SEARCH", seed=n, iterations=7)
        assert by_deadline == by_count
        assert len(checks) in (0, 8)  # 0: a forced or single move needs no search
        if n >= 3:
            break


def test_unknown_strategy_and_seat_not_to_act_are_refused() -> None:
    game = kind_game("TREELINGS")
    state = start(game, 2, None, "refuse").state
    with pytest.raises(ValueError, match="strategy"):
        suggest(game, state, 0, "CLEVER", seed=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="does not act"):
        suggest(game, state, 1, "RANDOM", seed=1)
