"""The Tree Lined Avenue (RULINGS AV-1..AV-10)."""

from service.games.avenue.game import TreeLinedAvenue

GAME = TreeLinedAvenue()

__all__ = ["GAME", "TreeLinedAvenue"]
