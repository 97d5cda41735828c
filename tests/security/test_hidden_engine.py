"""RULINGS ALL-4, proved the same way for every game: a seat (or a spectator) cannot tell apart
two states that differ only in what it may not see.

For random reachable states (random seed, player count, options and moves) and every viewer,
a twin is made that changes only what that viewer may not see (tests/security/hidden.py).
Then the viewer's view, its legal moves and their labels, the history steps that the same
move produces in both (as far as the viewer's view is still the same before each step), the
rejections of probe moves it sends (code, message, reason and rule), and the scores
must be identical; and no view, move or label carries the seed or the RNG state. The probes
include, as in tests/games/test_reasons.py, a move of each kind the game met and legal moves
with the fields of its reason table changed, so that reasons of every game are compared.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.engine import Game, IllegalMove, play, start
from service.engine.explain import WRONG_DECISION
from service.engine.play import copy_state
from service.games import games
from tests.security.hidden import TWINS, new_rng

EXAMPLES = 8  # random games per game and player count
POSITIONS = 6  # random states of each game, plus one of each phase it went through
PROBES: tuple[object, ...] = {"type": "noSuchMove"}, {"type": 7}, "reforest", [], None, {}

checked: dict[str, int] = {}
reasons_compared: dict[str, set[str]] = {}


def options_for(kind: str, draw: st.DrawFn) -> dict[str, Any] | None:
    if kind == "TREELINE":
        full = draw(st.sampled_from([True, True, True, False]))  # glades only in the full game
        return {"fullGame": full, "strategicStart": draw(st.booleans())}
    if kind == "TREE_LINED_AVENUE":
        return {"randomOrder": draw(st.booleans())}
    return None


@st.composite
def games_in_play(draw: st.DrawFn, kind: str, players: int) -> tuple[Any, str, list[Any]]:
    """A random game played to its end: its seed and every state before the end."""
    game = games()[kind]
    seed = "seed-" + draw(st.text("0123456789abcdef", min_size=12, max_size=12))
    options = options_for(kind, draw)
    chooser = random.Random(draw(st.integers(0, 2**32)))
    state = start(game, players, options, seed).state
    states = []
    while not game.is_over(state):
        states.append(state)
        seat = chooser.choice(game.to_act(state))
        move = chooser.choice(game.legal_moves(state, seat))
        state = play(game, state, seat, msgspec.to_builtins(move)).state
    return game, seed, states


def positions(states: list[Any], chooser: random.Random) -> list[Any]:
    """Random states, and one of each phase (rare ones like Treetopia's Eye choice included)."""
    by_phase: dict[object, list[Any]] = {}
    for state in states:
        phase = getattr(state, "phase", bool(getattr(state, "to_place", [])))
        by_phase.setdefault(phase, []).append(state)
    rare = [chooser.choice(group) for group in by_phase.values()]
    return rare + chooser.sample(states, min(POSITIONS, len(states)))


def wire(obj: object) -> bytes:
    return msgspec.json.encode(obj)


def offered(game: Game[Any, Any], state: Any, seat: int) -> list[tuple[Any, str]]:
    return [
        (msgspec.to_builtins(m), game.label(state, seat, m)) for m in game.legal_moves(state, seat)
    ]


def steps_seen(
    game: Game[Any, Any], state: Any, seat: int, move: Any, viewer: int | None
) -> list[tuple[bytes, bytes, str, bytes]]:
    """The steps `play` would record, each with the viewer's view before and after it.

    The same sequencing as service.engine.play (the move, then every forced decision), done
    step by step so that each label can be judged against what the viewer saw at that moment.
    """
    played = play(game, state, seat, move)
    state = copy_state(game, state)
    seen = []
    for step in played.steps:
        before = wire(game.view(state, viewer))
        assert step.label == game.label(state, step.seat, step.move)
        game.apply(state, step.seat, step.move)
        seen.append((before, wire(step.move), step.label, wire(game.view(state, viewer))))
    assert wire(state) == wire(played.state)
    return seen


def kinds_met(game: Game[Any, Any], states: list[Any]) -> list[Any]:
    """One move of each kind the game offered on the way: refused where another is owed."""
    found: dict[str, Any] = {}
    for state in states:
        for seat in game.to_act(state):
            for move in game.legal_moves(state, seat):
                found.setdefault(type(move).__name__, msgspec.to_builtins(move))
    return list(found.values())


def outcome(game: Game[Any, Any], state: Any, seat: int, move: object) -> tuple[str, ...]:
    try:
        steps = play(game, state, seat, move).steps
    except IllegalMove as exc:
        return exc.code.value, exc.message, exc.reason or "", exc.rule or ""
    return "accepted", steps[0].label


def probes(
    game: Game[Any, Any], state: Any, chooser: random.Random, kinds: list[Any]
) -> list[object]:
    """Malformed moves, every move some seat may make now, near misses of those, a move of
    each kind met (`kinds`), and legal moves with a field of the reason table changed to a
    value another move has."""
    moves: list[Any] = [
        msgspec.to_builtins(m) for s in game.to_act(state) for m in game.legal_moves(state, s)
    ]
    near = []
    for move in chooser.sample(moves, min(4, len(moves))):
        near.append({"type": move["type"]})
        for key, value in move.items():
            if isinstance(value, int) and not isinstance(value, bool):
                near += [{**move, key: value + 1}, {**move, key: 99}, {**move, key: -1}]
    values: dict[str, list[Any]] = {}
    for move in [*moves, *kinds]:
        for key, value in move.items():
            if value not in values.setdefault(key, []):
                values[key].append(value)
    for tag, fields in game.reasons:
        same = [move for move in moves if move["type"] == tag]
        for move in chooser.sample(same, min(1, len(same))) if fields else []:
            for key in fields:
                others = [v for v in values[key] if v != move[key]]
                near += [{**move, key: v} for v in chooser.sample(others, min(2, len(others)))]
    return [*PROBES, *chooser.sample(moves, min(6, len(moves))), *near, *kinds]


def assert_no_secret_text(texts: list[bytes], state: Any, seed: str) -> None:
    rng = str(state.rng.state).encode()
    for text in texts:
        assert seed.encode() not in text, "the seed is visible"
        assert len(rng) < 12 or rng not in text, "the RNG state is visible"


def assert_indistinguishable(
    game: Game[Any, Any],
    seed: str,
    state: Any,
    viewer: int | None,
    chooser: random.Random,
    kinds: list[Any],
) -> None:
    twin = TWINS[game.kind](state, viewer, chooser)
    view = wire(game.view(state, viewer))
    assert view == wire(game.view(twin, viewer)), f"view of {viewer} differs"
    assert game.to_act(state) == game.to_act(twin)
    assert wire(game.scores(state)) == wire(game.scores(twin)), "live scores differ"
    assert_no_secret_text([view], state, seed)
    assert_no_secret_text([view], twin, seed)
    if viewer is not None:
        assert offered(game, state, viewer) == offered(game, twin, viewer)
    determinize = getattr(game, "determinize", None)
    if determinize is not None:  # the bots' own re-draw of the unseen must keep the view too
        sample = determinize(state, viewer, new_rng(chooser))
        assert view == wire(game.view(sample, viewer)), f"determinize changed {viewer}'s view"
    if viewer is not None:
        for probe in probes(game, state, chooser, kinds):
            refused = outcome(game, state, viewer, probe)
            assert refused == outcome(game, twin, viewer, probe), probe
            if refused[0] == "ILLEGAL_MOVE":
                reasons_compared[game.kind].add(refused[2])
    for seat in game.to_act(state):
        theirs = {wire(m) for m in game.legal_moves(twin, seat)}
        common = [m for m in game.legal_moves(state, seat) if wire(m) in theirs]
        for move in chooser.sample(common, min(3, len(common))):
            mine = steps_seen(game, state, seat, msgspec.to_builtins(move), viewer)
            other = steps_seen(game, twin, seat, msgspec.to_builtins(move), viewer)
            assert_same_history(mine, other)
            assert_no_secret_text([m + label.encode() for _, m, label, _ in mine], state, seed)


def assert_same_history(
    mine: list[tuple[bytes, bytes, str, bytes]], other: list[tuple[bytes, bytes, str, bytes]]
) -> None:
    """Each step's move and label are public: while the viewer's view is the same, they are the
    same, or (a forced decision among hidden options) the view right after shows the
    difference, because the decision made the option public."""
    assert mine[0][1:3] == other[0][1:3], "the same move got another label"
    for (before, move, label, after), (before2, move2, label2, after2) in zip(
        mine, other, strict=False
    ):
        if before != before2:
            return  # public information has diverged: the histories may too
        if move == move2:
            assert label == label2, f"{move!r}: {label!r} != {label2!r}"
        else:
            assert after != after2, f"forced moves {move!r} / {move2!r} differ unseen"


TABLES = [
    (kind, players)
    for kind, game in sorted(games().items())
    for players in range(game.min_players, game.max_players + 1)
]


@pytest.mark.parametrize(("kind", "players"), TABLES)
def test_all4_no_viewer_can_tell_a_state_from_its_twin(kind: str, players: int) -> None:
    assert set(TWINS) == set(games()), (
        "every game needs its twin: tests/security/hidden.py or tests/games/<package>/twin.py"
    )
    checked[kind] = 0
    reasons_compared[kind] = set()

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
    )
    @given(played=games_in_play(kind, players), pick_seed=st.integers(0, 2**32))
    def prove(played: tuple[Any, str, list[Any]], pick_seed: int) -> None:
        game, seed, states = played
        picks = random.Random(pick_seed)
        kinds = kinds_met(game, states)
        for state in positions(states, picks):
            for viewer in [None, *range(state.players)]:
                assert_indistinguishable(game, seed, state, viewer, picks, kinds)
                checked[kind] += 1

    prove()
    assert checked[kind] >= EXAMPLES * POSITIONS * 2
    # refusals of every game were compared, a wrong kind of decision and the game's own reasons
    assert WRONG_DECISION in reasons_compared[kind], reasons_compared[kind]
    assert reasons_compared[kind] - {WRONG_DECISION}, reasons_compared[kind]
    print(f"{kind} {players}: {checked[kind]} (state, viewer) pairs")
