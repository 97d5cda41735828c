"""Exact chance that a tree's need is met on a random hand holding it (RULINGS TT-1).

A hand is the tree plus 3 cards drawn at random from the other 47. Every one of the C(47, 3)
hands is counted, through packed additive profiles, so the figure has no sampling noise.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from service.games.treetopia.cards import Card, Profile

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


def chances(cards: list[Card]) -> list[float]:
    """For each card, the share of hands holding it that meet its need."""
    packed = [_pack(c) for c in cards]
    triples = Counter(a + b + c for a, b, c in combinations(packed, 3))
    profiles: dict[int, Profile] = {}
    result = []
    for i, card in enumerate(cards):
        others = packed[:i] + packed[i + 1 :]
        mine = triples.copy()
        mine.subtract(packed[i] + a + b for a, b in combinations(others, 2))
        met = 0
        for key, n in mine.items():
            if n:
                full = key + packed[i]
                p = profiles.get(full)
                if p is None:
                    p = profiles[full] = _unpack(full)
                if card.test(p):
                    met += n
        result.append(met / HANDS)
    return result
