"""Tree cards and their needs, loaded from cards.json and validated at import (RULINGS TT-1).

A need is a small declarative condition on the four cards in front of a seat, the tree itself
included. It is evaluated on a hand's `Profile` (counts per type and environment, sun and water
sums), so a licensee can replace cards.json with the publisher's data without touching code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import reduce
from pathlib import Path

import msgspec

SUMS = ("sun", "water")
ATTRIBUTES = ("type", "environment")


class Count(msgspec.Struct, tag_field="need", tag="count", rename="camel", frozen=True):
    """How many of the four cards have a type or an environment: exactly n or at least n."""

    of: str
    exactly: int | None = None
    at_least: int | None = None


class Sum(msgspec.Struct, tag_field="need", tag="sum", rename="camel", frozen=True):
    """The sun or water total of the four cards: exactly, at least or at most n."""

    of: str
    exactly: int | None = None
    at_least: int | None = None
    at_most: int | None = None


class AllDifferent(msgspec.Struct, tag_field="need", tag="allDifferent", frozen=True):
    """The four cards have four different types (or environments)."""

    of: str


class All(msgspec.Struct, tag_field="need", tag="and", frozen=True):
    all: tuple[Need, ...]


class Any_(msgspec.Struct, tag_field="need", tag="or", frozen=True):
    any: tuple[Need, ...]


Need = Count | Sum | AllDifferent | All | Any_


class Kind(msgspec.Struct, frozen=True):
    id: str
    name: str


class CardData(msgspec.Struct, frozen=True):
    id: int
    type: str
    environment: str
    sun: int
    water: int
    hope: int
    need: Need


class Symbiosis(msgspec.Struct, frozen=True):
    id: int
    types: tuple[str, str]


class DataFile(msgspec.Struct, frozen=True):
    types: tuple[Kind, ...]
    environments: tuple[Kind, ...]
    symbioses: tuple[Symbiosis, ...]
    cards: tuple[CardData, ...]


class Profile(msgspec.Struct, frozen=True):
    """What a need can see of a hand: counts per type and environment, sun and water sums.

    A Struct rather than a frozen dataclass: one is made for every hand a KEEP decision checks,
    and a frozen dataclass's __init__ costs ~7 times a Struct's."""

    types: tuple[int, ...]
    environments: tuple[int, ...]
    sun: int
    water: int


Test = Callable[[Profile], bool]


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    type: int  # index into TYPES
    environment: int  # index into ENVIRONMENTS
    sun: int
    water: int
    hope: int
    need: Need
    test: Test
    name: str  # "<environment> <type>", e.g. "Icy Landscape Palm Tree"


class CardDataError(ValueError):
    pass


def _bounds(need: Count | Sum) -> list[tuple[str, int]]:
    fields = ("exactly", "at_least", "at_most")
    return [(f, getattr(need, f)) for f in fields if getattr(need, f, None) is not None]


def compile_need(need: Need, type_ids: list[str], env_ids: list[str]) -> Test:
    """The need as a fast predicate over a Profile; raises CardDataError on a malformed need."""
    if isinstance(need, Count):
        bounds = _bounds(need)
        if len(bounds) != 1 or not 0 <= bounds[0][1] <= 4:
            raise CardDataError(f"count of {need.of!r} needs one bound from 0 to 4")
        op, n = bounds[0]
        if need.of in type_ids:
            i = type_ids.index(need.of)
            if op == "exactly":
                return lambda p: p.types[i] == n
            return lambda p: p.types[i] >= n
        if need.of in env_ids:
            i = env_ids.index(need.of)
            if op == "exactly":
                return lambda p: p.environments[i] == n
            return lambda p: p.environments[i] >= n
        raise CardDataError(f"count of unknown type or environment {need.of!r}")
    if isinstance(need, Sum):
        bounds = _bounds(need)
        if need.of not in SUMS or len(bounds) != 1 or not 4 <= bounds[0][1] <= 12:
            raise CardDataError(f"sum of {need.of!r} needs sun or water and one bound 4..12")
        op, n = bounds[0]
        sun = need.of == "sun"
        if op == "exactly":
            return lambda p: (p.sun if sun else p.water) == n
        if op == "at_least":
            return lambda p: (p.sun if sun else p.water) >= n
        return lambda p: (p.sun if sun else p.water) <= n
    if isinstance(need, AllDifferent):
        if need.of not in ATTRIBUTES:
            raise CardDataError(f"allDifferent of {need.of!r} needs type or environment")
        if need.of == "type":
            return lambda p: max(p.types) == 1
        return lambda p: max(p.environments) == 1
    parts = [
        compile_need(n, type_ids, env_ids)
        for n in (need.all if isinstance(need, All) else need.any)
    ]
    if len(parts) < 2:
        raise CardDataError("and/or need at least two parts")
    return reduce(_both if isinstance(need, All) else _either, parts)


def _both(first: Test, second: Test) -> Test:
    return lambda p: first(p) and second(p)


def _either(first: Test, second: Test) -> Test:
    return lambda p: first(p) or second(p)


def describe(need: Need) -> str:
    """The need in plain words, e.g. "exactly 2 Icy Landscape and exactly 2 Swamp"."""
    if isinstance(need, Count):
        name = _NAMES.get(need.of, need.of)
        if need.exactly == 0:
            return f"no {name}"
        if need.exactly is not None:
            return f"exactly {need.exactly} {name}"
        return f"at least {need.at_least} {name}"
    if isinstance(need, Sum):
        op, n = _bounds(need)[0]
        return f"{need.of} total {op.replace('_', ' ')} {n}"
    if isinstance(need, AllDifferent):
        return f"4 different {'types' if need.of == 'type' else 'environments'}"
    if isinstance(need, All):
        return " and ".join(_part(n) for n in need.all)
    return " or ".join(_part(n) for n in need.any)


def _part(need: Need) -> str:
    text = describe(need)
    return f"({text})" if isinstance(need, All | Any_) else text


def profile(cards: Iterable[Card]) -> Profile:
    types = [0, 0, 0, 0]
    envs = [0, 0, 0, 0]
    sun = water = 0
    for card in cards:
        types[card.type] += 1
        envs[card.environment] += 1
        sun += card.sun
        water += card.water
    return Profile(tuple(types), tuple(envs), sun, water)


def _load(path: Path) -> tuple[DataFile, list[Card]]:
    data = msgspec.json.decode(path.read_bytes(), type=DataFile)
    type_ids = [k.id for k in data.types]
    env_ids = [k.id for k in data.environments]
    if len(type_ids) != 4 or len(env_ids) != 4:
        raise CardDataError("Treetopia has 4 tree types and 4 environments")
    if len(data.cards) != 48 or [c.id for c in data.cards] != list(range(48)):
        raise CardDataError("48 tree cards with ids 0..47 in order")
    pairs = sorted(tuple(sorted(s.types)) for s in data.symbioses)
    expected = sorted(
        (a, b) for i, a in enumerate(sorted(type_ids)) for b in sorted(type_ids)[i + 1 :]
    )
    if pairs != expected or [s.id for s in data.symbioses] != list(range(6)):
        raise CardDataError("the 6 symbiosis cards are the 6 pairs of distinct types (TT-2)")
    cards: list[Card] = []
    seen: dict[bytes, int] = {}
    groups: dict[tuple[str, str], int] = {}
    for c in data.cards:
        if c.type not in type_ids or c.environment not in env_ids:
            raise CardDataError(f"card {c.id}: unknown type or environment")
        if not (1 <= c.sun <= 3 and 1 <= c.water <= 3 and 2 <= c.hope <= 5):
            raise CardDataError(f"card {c.id}: sun and water are 1..3, hope 2..5 (TT-1)")
        key = msgspec.json.encode(c.need)
        if key in seen:
            raise CardDataError(f"cards {seen[key]} and {c.id} share a need (needs are unique)")
        seen[key] = c.id
        groups[(c.type, c.environment)] = groups.get((c.type, c.environment), 0) + 1
        test = compile_need(c.need, type_ids, env_ids)
        type_, env = type_ids.index(c.type), env_ids.index(c.environment)
        name = f"{data.environments[env].name} {data.types[type_].name}"
        card = Card(c.id, type_, env, c.sun, c.water, c.hope, c.need, test, name)
        cards.append(card)
    if sorted(groups.values()) != [3] * 16:
        raise CardDataError("3 cards of each type in each environment (TT-1)")
    return data, cards


_PATH = Path(__file__).with_name("cards.json")
_NAMES: dict[str, str] = {}
DATA, CARDS = _load(_PATH)
TYPES = DATA.types
ENVIRONMENTS = DATA.environments
_NAMES.update({k.id: k.name for k in (*TYPES, *ENVIRONMENTS)})
_TYPE_IDS = [k.id for k in TYPES]
# The type indexes of each symbiosis card's pair, lower first (TT-2).
SYMBIOSES: tuple[tuple[int, int], ...] = tuple(
    (min(_TYPE_IDS.index(a), _TYPE_IDS.index(b)), max(_TYPE_IDS.index(a), _TYPE_IDS.index(b)))
    for a, b in (s.types for s in DATA.symbioses)
)


def plantable(hand: list[int]) -> list[int]:
    """The cards of a four-card hand whose needs the hand meets, in hand order."""
    seen = profile([CARDS[c] for c in hand])
    return [c for c in hand if CARDS[c].test(seen)]
