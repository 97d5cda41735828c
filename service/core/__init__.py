"""The protocol-neutral game service: what both API adapters and the workers call.

`GameService` (service.py) loads, authorizes, checks versions, runs the engine, commits and
answers a `LoadedGame`; it fails one way, `Refused` (service/refusals.py). Its rooms are the
folders beside it, each importing only the ones under it (docs/architecture.md, "The core's rooms"):
reads/ and records/ over takebacks/, over moves/, over players/, over game/, over access/. It imports no
adapter. Its names load when first asked for: records/ (a game record's replay) comes without
the service's store and server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.lazy import lazy_names

if TYPE_CHECKING:
    from service.core.access.callers import Caller
    from service.core.game.loaded_game import Applied, LoadedGame
    from service.core.service import GameService

_MODULES = {
    "Caller": "access.callers",
    "Applied": "game.loaded_game",
    "LoadedGame": "game.loaded_game",
    "GameService": "service",
}


__getattr__ = lazy_names(__name__, _MODULES)

__all__ = ["Applied", "Caller", "GameService", "LoadedGame"]
