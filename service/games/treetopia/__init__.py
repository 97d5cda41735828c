"""Treetopia: save trees by meeting their needs and replant them in a shared sanctuary."""

from service.games.treetopia.game import Treetopia

GAME = Treetopia()

__all__ = ["GAME", "Treetopia"]
