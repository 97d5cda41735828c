"""The bots' side of the engine contract: every game carries its own BotTuning and bot hooks,
and service/bots knows games only through them (a fifth game is a package, docs/bots.md)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import msgspec
import pytest

import service.bots
from service.engine import BotHooks, BotTuning, start
from service.games import games

from .positions import KINDS, positions

BOTS = Path(service.bots.__file__).parent
# The calibrated numbers (docs/bots.md): changing one changes the bots' moves.
TUNING = {
    "TREELINE": BotTuning(search_iterations=250, rollout_cap=24, margin_scale=6.0),
    "TREELINGS": BotTuning(search_iterations=500, rollout_cap=60, margin_scale=6.0),
    "TREETOPIA": BotTuning(search_iterations=250, rollout_cap=40, margin_scale=10.0),
    "TREE_LINED_AVENUE": BotTuning(
        search_iterations=60, rollout_cap=0, finish_turn=True, margin_scale=12.0
    ),
}


def test_bot_tuning_defaults_are_those_of_a_game_that_sets_none() -> None:
    tuning = BotTuning()
    assert (tuning.search_iterations, tuning.rollout_cap, tuning.finish_turn) == (100, 40, False)
    assert tuning.margin_scale == 8.0
    assert BotHooks.bot_tuning == tuning
    with pytest.raises(AttributeError):
        tuning.rollout_cap = 1  # type: ignore[misc]


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_has_its_bot_tuning_and_hooks(kind: str) -> None:
    game: Any = games()[kind]
    assert isinstance(game.bot_tuning, BotTuning)
    assert game.bot_tuning == TUNING.get(kind, BotTuning())  # a new game: the defaults
    assert game.bot_tuning.search_iterations > 0 and game.bot_tuning.margin_scale > 0
    keys = set()
    for players in range(game.min_players, game.max_players + 1):
        for state in positions(game, players, f"tuning-{kind}-{players}", every=7):
            points = game.bot_points(state)
            assert len(points) == players and all(type(p) is int for p in points)
            for seat in range(players):
                others = game.opponents(state, seat)
                assert others and seat not in others
                assert set(others) <= set(range(players))
            key = game.turn_key(state)
            assert isinstance(key, tuple) and all(type(k) is int for k in key)
            keys.add(key)
    assert len(keys) > 1, "turn_key never changes: GREEDY would not see a turn end"


def test_treeline_with_four_players_plays_team_against_team() -> None:
    game: Any = games()["TREELINE"]
    state = start(game, 4, None, "teams").state
    assert [game.opponents(state, seat) for seat in range(4)] == [[1, 3], [0, 2], [1, 3], [0, 2]]
    state = start(game, 3, None, "no-teams").state
    assert game.opponents(state, 0) == [1, 2]  # TL-10: teams only with four


def _bot_sources() -> list[tuple[Path, str, ast.Module]]:
    found = []
    for path in sorted(BOTS.rglob("*.py")):
        text = path.read_text()
        found.append((path, text, ast.parse(text, str(path))))
    assert len(found) >= 5
    return found


def test_the_bots_import_no_game() -> None:
    for path, _, tree in _bot_sources():
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{path.name}: relative import"
                names = [node.module or ""]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names = [node.value] if node.value.startswith("service.games") else []
            for name in names:  # the registry (service.games.games) names no game
                assert not name.startswith("service.games."), f"{path.name} imports {name}"


def test_the_bots_name_no_game_kind() -> None:
    kinds = list(games())
    assert kinds
    for path, text, tree in _bot_sources():
        for kind in kinds:
            assert kind not in text, f"{path.name} names {kind}"
        for node in ast.walk(tree):  # a kind may be looked up (hints.py), never branched on
            if isinstance(node, ast.Compare):
                for side in (node.left, *node.comparators):
                    branches = isinstance(side, ast.Attribute) and side.attr == "kind"
                    assert not branches, f"{path.name}:{node.lineno} branches on a game's kind"


def test_tuning_is_plain_data() -> None:
    assert msgspec.to_builtins(TUNING["TREELINE"]) == {
        "search_iterations": 250,
        "rollout_cap": 24,
        "finish_turn": False,
        "margin_scale": 6.0,
    }
