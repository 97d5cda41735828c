"""Exact chance that a tree's need is met on a random hand holding it (RULINGS TT-1).

A hand is the tree plus 3 cards drawn at random from the other 47. Every one of the C(47, 3)
hands is counted, through packed additive profiles, so the figure has no sampling noise.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from service.games.treetopia.cards import Card, Profile, Test

HANDS = 47 * 46 * 45 // 6


def _pack(card: Card) -> int:
    return (
        (1 << (3 * card.type))
        + (1 << (12 + 3 * card.environment))
        + (card.sun << 24)
        + (card.water << 30)
    )


def _unpack(key: int) -> Profile:
    return Profile(
        tuple((key >> (3 * i)) & 7 for i in range(4)),
        tuple((key >> (12 + 3 * i)) & 7 for i in range(4)),
        (key >> 24) & 63,
        key >> 30,
    )


class Odds:
    """Chances on hands drawn from `cards`; the counts of 3-card profiles are built once."""

    def __init__(self, cards: list[Card]) -> None:
        self.cards = cards
        self.packed = [_pack(c) for c in cards]
        self.triples = Counter(a + b + c for a, b, c in combinations(self.packed, 3))
        self.profiles: dict[int, Profile] = {}

    def chance(self, index: int, test: Test | None = None) -> float:
        """The share of hands holding card `index` that pass `test` (default: its need)."""
        test = test or self.cards[index].test
        mine = self.packed[index]
        others = self.packed[:index] + self.packed[index + 1 :]
        counts = self.triples.copy()
        counts.subtract(mine + a + b for a, b in combinations(others, 2))
        met = 0
        for key, n in counts.items():
            if n:
                full = key + mine
                seen = self.profiles.get(full)
                if seen is None:
                    seen = self.profiles[full] = _unpack(full)
                if test(seen):
                    met += n
        return met / HANDS


def chances(cards: list[Card]) -> list[float]:
    """For each card, the share of hands holding it that meet its need."""
    odds = Odds(cards)
    return [odds.chance(i) for i in range(len(cards))]
