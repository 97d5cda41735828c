"""Treeline: reforest the town, deploy Forest Folk, claim castles (rulebook: treeline.txt)."""

from service.games.treeline.game import RULES_VERSION, Treeline

GAME = Treeline()

__all__ = ["GAME", "RULES_VERSION", "Treeline"]
