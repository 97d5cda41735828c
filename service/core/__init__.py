"""The protocol-neutral game service: what both API adapters and the workers call.

`GameService` (service.py) loads, authorizes, checks versions, runs the engine, commits and
answers a `LoadedGame`; it fails one way, `Refused` (service/refusals.py). Its rooms are the
folders beside it, each importing only the ones under it (docs/architecture.md, "The core's rooms"):
reads/ and records/ over takebacks/, over moves/, over game/, over access/. It imports no
adapter.
"""

from service.core.access.callers import Caller
from service.core.game.loaded_game import Applied, LoadedGame
from service.core.service import GameService

__all__ = ["Applied", "Caller", "GameService", "LoadedGame"]
