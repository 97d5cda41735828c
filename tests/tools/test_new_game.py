"""`make new-game` (tools/new_game.py): the scaffold writes, into a temporary tree, a game that
plays to its end through the engine and passes the checks every game gets (its own tests, the
conformance suite, the reasons, texts, view docs and score details), imported from there; the
repository's own tree is left as it is."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import pytest

import service.games
import tests.games
import tests.games.docs
from service.api.edge.localized import texts
from service.engine import Game, play, start
from service.games import games
from tests.conformance import run
from tests.games import test_reasons, test_score_details, test_texts, test_view_docs

ROOT = Path(__file__).parents[2]
NAME, KIND = "scaffold_check", "SCAFFOLD_CHECK"  # a name no real game takes


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("new_game", ROOT / "tools" / "new_game.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


@pytest.fixture
def scaffolded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Game[Any, Any]]:
    """The game scaffolded under tmp_path, found by games() while the test runs."""
    (tmp_path / "schema").mkdir()
    allowed = (ROOT / "schema" / "allowed-dangerous-changes.txt").read_text()
    (tmp_path / "schema" / "allowed-dangerous-changes.txt").write_text(allowed)
    TOOL.scaffold(tmp_path, NAME, "Oak Grove")
    assert not (ROOT / "service" / "games" / NAME).exists(), "the real tree was written"
    monkeypatch.setattr(
        service.games, "__path__", [*service.games.__path__, str(tmp_path / "service/games")]
    )
    monkeypatch.setattr(
        tests.games, "__path__", [*tests.games.__path__, str(tmp_path / "tests/games")]
    )
    monkeypatch.setattr(tests.games.docs, "RULES", tmp_path / "docs" / "rules")
    games.cache_clear()
    texts.cache_clear()
    try:
        yield games()[KIND]
    finally:
        games.cache_clear()
        texts.cache_clear()
        for module in [m for m in sys.modules if f".games.{NAME}" in m]:
            del sys.modules[module]


def test_the_scaffold_writes_the_package_its_doc_and_its_tests(
    tmp_path: Path,
) -> None:
    written = TOOL.scaffold(tmp_path, NAME, None)
    assert {str(p) for p in written} == {
        "service/games/scaffold_check/__init__.py",
        "service/games/scaffold_check/game.py",
        "service/games/scaffold_check/rules.py",
        "service/games/scaffold_check/messages/messages.pot",
        "docs/rules/scaffold_check.md",
        "tests/games/scaffold_check/__init__.py",
        "tests/games/scaffold_check/test_conformance.py",
        "tests/games/scaffold_check/test_rules.py",
        "tests/games/scaffold_check/twin.py",
    }
    assert 'title: ClassVar[str] = "Scaffold Check"' in (tmp_path / written[1]).read_text()


def test_a_name_that_exists_or_is_no_identifier_is_refused(tmp_path: Path) -> None:
    for name in ("treelings", "avenue", "tree_lined_avenue"):  # a package, a kind
        with pytest.raises(TOOL.Refused, match="exist"):
            TOOL.check(ROOT, name)
    for name in ("Oak", "oak-grove", "9oaks", "class", "oak__grove", ""):
        with pytest.raises(TOOL.Refused, match="identifier"):
            TOOL.check(ROOT, name)
    TOOL.scaffold(tmp_path, NAME)
    with pytest.raises(TOOL.Refused, match="exists"):
        TOOL.scaffold(tmp_path, NAME)
    assert TOOL.main([NAME, "--root", str(tmp_path)]) == 2


def test_the_scaffolded_game_plays_to_its_end(scaffolded: Game[Any, Any]) -> None:
    game = scaffolded
    state = start(game, 3, {}, "to-the-end").state
    decisions = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        move = game.legal_moves(state, seat)[-1]  # pass once, then take from the south
        state = play(game, state, seat, msgspec.to_builtins(move)).state
        decisions += 1
    scores = game.scores(state)
    assert scores.final and game.to_act(state) == [] and decisions > 20
    last = state.last_taker
    assert [e.tiebreak for e in scores.entries] == [[int(s == last)] for s in range(3)]
    for entry in scores.entries:
        acorns, golden = state.taken[entry.seat]
        assert entry.points == acorns + 3 * golden + (2 if entry.seat == last else 0)
    best = max((e.points, e.tiebreak) for e in scores.entries)
    assert scores.winners == [e.seat for e in scores.entries if (e.points, e.tiebreak) == best]


def test_the_scaffolded_game_passes_its_own_tests_and_every_games_checks(
    scaffolded: Game[Any, Any],
) -> None:
    own = importlib.import_module(f"tests.games.{NAME}.test_rules")
    for name in dir(own):
        if name.startswith("test_"):
            getattr(own, name)()
    invariant = importlib.import_module(f"tests.games.{NAME}.test_conformance").invariant
    run(scaffolded, [2, 3, 4], ["new-0", "new-1"], invariant=invariant)
    test_reasons.test_every_reason_of_the_game_is_produced_by_a_refusal(KIND)
    test_reasons.test_every_reason_is_documented_with_its_rule(KIND)
    test_reasons.test_reason_tables_name_real_move_kinds_and_fields()
    test_view_docs.test_every_view_field_is_documented(KIND)
    test_texts.test_every_label_refusal_and_score_detail_of_the_game_goes_through_its_catalog(KIND)
    test_score_details.test_every_item_names_its_seat_and_adds_up_from_its_terms(KIND, 2, {})
