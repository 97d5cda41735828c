"""The games the service hosts, by their GraphQL GameKind value.

Every package under service/games exposes its game object as `GAME` (the engine contract,
service/engine/contract.py); adding a game is adding a package (docs/architecture.md, "Adding a
game"). The engine knows no game: the service asks this registry.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from service.engine import Game


@cache
def games() -> dict[str, Game[Any, Any]]:
    found: dict[str, Game[Any, Any]] = {}
    for module in pkgutil.iter_modules(__path__):
        game = importlib.import_module(f"{__name__}.{module.name}").GAME
        found[game.kind] = game
    return dict(sorted(found.items()))
