"""Treelings: grow guild trees in your district, taller than your neighbours' (see
docs/rules/treelings.md)."""

from service.games.treelings.game import Treelings

GAME = Treelings()

__all__ = ["GAME", "Treelings"]
