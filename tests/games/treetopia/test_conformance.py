"""The shared conformance suite for 2, 3 and 4 players, and a fast loop over many more games."""

from __future__ import annotations

import random
from collections import Counter

from service.engine import Rng
from service.engine.play import encode_state
from service.games.treetopia import GAME
from service.games.treetopia.sanctuary import cells, grid, group_of
from service.games.treetopia.state import Phase, State, TreetopiaOptions
from tests import conformance


def invariant(state: State) -> None:
    everywhere = [*state.pile, *state.pool, *state.discard, *state.eye]
    everywhere += [c for hand in state.hands for c in hand]
    everywhere += [t.card for t in state.sanctuary]
    assert sorted(everywhere) == list(range(48)), "every card is in exactly one place"
    for seat, hand in enumerate(state.hands):
        holding = seat == state.active and state.phase in (Phase.KEEP, Phase.CELL)
        assert len(hand) == (4 if holding else 3)
    if state.phase == Phase.START:
        assert len(state.pool) >= 2 or (not state.pile and not state.discard)
    assert len(state.sanctuary) <= cells(state.players)
    taken = grid(state)
    assert len(taken) == len(state.sanctuary)
    for tree in state.sanctuary:
        assert 2 <= tree.hope <= 5 and 0 <= tree.group <= 3 and 0 <= tree.symbiosis <= 4
    if state.sanctuary:
        last = state.sanctuary[-1]
        size = len(group_of(taken, (last.row, last.col)))
        assert last.group == (size - 1 if size <= 4 else 0)
    assert len(encode_state(state)) <= 4096


def test_conformance_two_players() -> None:
    conformance.run(GAME, [2], [f"c{i}" for i in range(10)], invariant=invariant)


def test_conformance_three_players() -> None:
    conformance.run(GAME, [3], [f"c{i}" for i in range(8)], invariant=invariant)


def test_conformance_four_players() -> None:
    conformance.run(GAME, [4], [f"c{i}" for i in range(8)], invariant=invariant)


def test_conformance_more_seeds_and_start_seats() -> None:
    for start in range(4):
        conformance.run(
            GAME,
            [4],
            [f"s{start}-{i}" for i in range(4)],
            options={"startSeat": start},
            invariant=invariant,
            try_every_move=False,
        )


def fast_game(players: int, seed: int) -> int:
    """A random game straight through the hooks, without the per-step checks: its decisions."""
    chooser = random.Random(seed)
    state = GAME.setup(players, TreetopiaOptions(), Rng.from_seed(f"fast-{players}-{seed}"))
    decisions = 0
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        moves = GAME.legal_moves(state, seat)
        GAME.apply(state, seat, moves[chooser.randrange(len(moves))])
        decisions += 1
        assert decisions < 5000, f"{players} players, seed {seed}: no end in sight"
    assert len(state.sanctuary) == cells(players)
    return decisions


def test_random_play_finishes_every_game() -> None:
    """TT-9 and TT-1: 2100 seeded random games all end with a full sanctuary."""
    longest: Counter[int] = Counter()
    for players in (2, 3, 4):
        for seed in range(700):
            longest[players] = max(longest[players], fast_game(players, seed))
    assert all(n < 2000 for n in longest.values()), longest
