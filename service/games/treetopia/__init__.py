"""Treetopia: save trees by meeting their needs and replant them in a shared sanctuary."""

from service.games.treetopia.game import RULES_VERSION, Treetopia

GAME = Treetopia()

__all__ = ["GAME", "RULES_VERSION", "Treetopia"]
