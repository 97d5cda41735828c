"""The games the service hosts, by their GraphQL GameKind value.

Every package under service/games exposes its game object as `GAME`; adding a game is adding
a package, nothing else to edit.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from service.engine.contract import Game


@cache
def games() -> dict[str, Game[Any, Any]]:
    import service.games as package

    found: dict[str, Game[Any, Any]] = {}
    for module in pkgutil.iter_modules(package.__path__):
        game = importlib.import_module(f"{package.__name__}.{module.name}").GAME
        found[game.kind] = game
    return dict(sorted(found.items()))
