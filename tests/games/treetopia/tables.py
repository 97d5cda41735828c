"""Hand-built Treetopia positions for scripted tests.

Card ids follow the data file: id = type * 12 + environment * 3 + k, types pearl, mushroom,
palm, spiral and environments swamp, industrial, desert, icy. Cards not placed anywhere go to
the draw pile in id order (the last id on top), so every position holds all 48 cards.
"""

from __future__ import annotations

from service.engine import Rng
from service.games.treetopia.state import Phase, Planted, State

PEARL, MUSHROOM, PALM, SPIRAL = range(4)
SWAMP, INDUSTRIAL, DESERT, ICY = range(4)
PALM_SPIRAL = 5  # the symbiosis card of palm and spiral


def card(kind: int, environment: int, k: int = 0) -> int:
    return kind * 12 + environment * 3 + k


def tree(kind: int, environment: int, row: int, col: int, seat: int = 1, k: int = 0) -> Planted:
    return Planted(card(kind, environment, k), seat, row, col, 2, 0, 0)


def table(
    players: int = 2,
    hands: list[list[int]] | None = None,
    pool: list[int] | None = None,
    pile: list[int] | None = None,
    discard: list[int] | None = None,
    sanctuary: list[Planted] | None = None,
    tokens: list[list[bool]] | None = None,
    symbiosis: int = PALM_SPIRAL,
    active: int = 0,
    phase: Phase = Phase.START,
) -> State:
    """A position; `pile` (top last) is completed below with every card placed nowhere else."""
    hands = hands or [[] for _ in range(players)]
    pool = pool or []
    discard = discard or []
    sanctuary = sanctuary or []
    placed = [c for h in hands for c in h] + pool + discard + [t.card for t in sanctuary]
    placed += pile or []
    assert len(placed) == len(set(placed)), "a card is in two places"
    rest = [c for c in range(48) if c not in placed]
    return State(
        players=players,
        rng=Rng.from_seed("table"),
        symbiosis=symbiosis,
        pile=rest + (pile or []),
        pool=list(pool),
        discard=list(discard),
        hands=[list(h) for h in hands],
        tokens=tokens or [[True, False, False] for _ in range(players)],
        sanctuary=list(sanctuary),
        active=active,
        phase=phase,
    )
