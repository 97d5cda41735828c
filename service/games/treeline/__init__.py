"""Treeline: reforest the town, deploy Forest Folk, claim castles (rulebook: treeline.txt)."""

from service.games.treeline.game import Treeline

GAME = Treeline()

__all__ = ["GAME", "Treeline"]
