"""Treelings: grow guild trees in your district, taller than your neighbours' (see
docs/rules/treelings.md)."""

from service.games.treelings.game import RULES_VERSION, Treelings

GAME = Treelings()

__all__ = ["GAME", "RULES_VERSION", "Treelings"]
