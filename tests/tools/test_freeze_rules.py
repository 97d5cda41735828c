"""`make freeze-rules` (tools/freeze_rules.py): a game's package copied, as it is, into its
`earlier/v<N>/` with every import of the package pointing into the copy; a version frozen
twice is refused. That the service then plays both versions side by side:
tests/reliability/test_rules_versions.py."""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
spec = importlib.util.spec_from_file_location("freeze_rules", ROOT / "tools" / "freeze_rules.py")
assert spec is not None and spec.loader is not None
TOOL = importlib.util.module_from_spec(spec)
spec.loader.exec_module(TOOL)


def test_a_frozen_copy_imports_only_itself(tmp_path: Path) -> None:
    games = tmp_path / "games"
    shutil.copytree(
        ROOT / "service" / "games" / "treelings",
        games / "treelings",
        ignore=shutil.ignore_patterns("__pycache__", "earlier"),
    )
    frozen = TOOL.freeze("treelings", games)

    assert frozen == games / "treelings" / "earlier" / "v1"
    assert (games / "treelings" / "earlier" / "__init__.py").is_file()
    copied = {p.relative_to(frozen) for p in frozen.rglob("*") if p.is_file()}
    original = {
        p.relative_to(games / "treelings")
        for p in (games / "treelings").rglob("*")
        if p.is_file() and "earlier" not in p.parts
    }
    assert copied == original, "every file, the cards and the messages too"
    outside = re.compile(r"service\.games\.treelings\b(?!\.earlier\.v1\b)")
    for path in frozen.rglob("*.py"):
        assert not outside.search(path.read_text()), path
    assert (
        "from service.games.treelings.earlier.v1.game import"
        in (frozen / "__init__.py").read_text()
    )
    with pytest.raises(SystemExit, match="frozen already"):
        TOOL.freeze("treelings", games)
