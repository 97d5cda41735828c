"""A game's twin found in its own test package: `twin` in tests/games/<package>/twin.py, for a
game whose twin is not written out in tests/security/hidden.py (docs/architecture.md, "Adding a
game"; `make new-game` writes one). A twin is a copy of a state that differs only in what one
viewer may not see (RULINGS ALL-4)."""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable
from typing import Any

from service.engine import Game

Twin = Callable[[Any, "int | None", random.Random], Any]


def package_twin(game: Game[Any, Any]) -> Twin | None:
    package = type(game).__module__.split(".")[2]  # service.games.<package>.game
    name = f"tests.games.{package}.twin"
    if importlib.util.find_spec(f"tests.games.{package}") is None:
        return None
    if importlib.util.find_spec(name) is None:
        return None
    twin: Twin = importlib.import_module(name).twin
    return twin
