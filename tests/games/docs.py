"""Where a game's rules doc is: docs/rules/<its package's name>.md (docs/architecture.md,
"Adding a game")."""

from __future__ import annotations

from pathlib import Path

from service.games import games

RULES = Path(__file__).parents[2] / "docs" / "rules"


def rules_doc(kind: str) -> Path:
    package = type(games()[kind]).__module__.split(".")[2]  # service.games.<package>.game
    return RULES / f"{package}.md"
