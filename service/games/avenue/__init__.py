"""The Tree Lined Avenue (RULINGS AV-1..AV-10)."""

from typing import Any

from service.engine import Game
from service.games.avenue.game import RULES_VERSION, TreeLinedAvenue

GAME: Game[Any, Any] = TreeLinedAvenue()

__all__ = ["GAME", "RULES_VERSION", "TreeLinedAvenue"]
