"""The Tree Lined Avenue's card data: one JSON file, loaded and validated at import (AV-2).

The rulebook does not print its card faces, so `cards.json` is our design; a licensee can swap
in the publisher's list without touching code as long as it keeps the counts AV-2 fixes.
Everything the rules use is turned into small ints here: tree types, facilities, animals and
actions are indexes into the lists at the top of the file, and a card is its index.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

DATA_FILE = Path(__file__).with_name("cards.json")

WILD = -1
NO_ACTION = -1
SIZE = 6
CELLS = SIZE * SIZE


class AnimalData(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    tiles: int


class CardData(msgspec.Struct, forbid_unknown_fields=True):
    value: int
    tree: str
    symbolic: bool = False
    facilities: list[str] = []
    action: str | None = None


class ProjectData(msgspec.Struct, forbid_unknown_fields=True):
    points: int
    animals: dict[str, int] = {}
    facilities: dict[str, int] = {}


class DataFile(msgspec.Struct, forbid_unknown_fields=True):
    trees: list[str]
    facilities: list[str]
    actions: list[str]
    animals: list[AnimalData]
    cards: list[CardData]
    projects: list[ProjectData]


class Card(msgspec.Struct, frozen=True):
    id: int
    value: int
    tree: int  # index into TREES, WILD for the wild card
    symbolic: bool
    facilities: tuple[int, ...]  # indexes into FACILITIES; a card may show one twice
    action: int  # index into ACTIONS, NO_ACTION if none


class Project(msgspec.Struct, frozen=True):
    id: int
    points: int
    animals: tuple[int, ...]  # how many of each animal, by index into ANIMALS
    facilities: tuple[int, ...]  # how many of each facility, by index into FACILITIES


class CardDataError(ValueError):
    """The data file breaks a count the rulebook or AV-2 fixes."""


def _index(names: list[str], name: str, what: str) -> int:
    if name not in names:
        raise CardDataError(f"unknown {what} {name!r}")
    return names.index(name)


def _counts(names: list[str], wanted: dict[str, int], what: str) -> tuple[int, ...]:
    counts = [0] * len(names)
    for name, count in wanted.items():
        if count < 1:
            raise CardDataError(f"a project needs a positive count of {name}")
        counts[_index(names, name, what)] = count
    return tuple(counts)


def _card(index: int, raw: CardData, data: DataFile) -> Card:
    tree = WILD if raw.tree == "wild" else _index(data.trees, raw.tree, "tree")
    if not 1 <= raw.value <= 10:
        raise CardDataError(f"card {index}: value {raw.value} is outside 1..10")
    if len(raw.facilities) > 2:
        raise CardDataError(f"card {index}: at most two facilities")
    action = NO_ACTION if raw.action is None else _index(data.actions, raw.action, "action")
    facilities = tuple(_index(data.facilities, f, "facility") for f in raw.facilities)
    return Card(index, raw.value, tree, raw.symbolic, facilities, action)


def _validate(data: DataFile, cards: list[Card], projects: list[Project]) -> None:
    if data.trees != ["zelkova", "birch", "sakura", "maple", "ginkgo"]:
        raise CardDataError("the five tree types are zelkova, birch, sakura, maple, ginkgo")
    if data.facilities != ["plaza", "pond", "pavilion"]:
        raise CardDataError("the facilities are plaza, pond, pavilion")
    if data.actions != ["relocate", "project", "redraw", "animal"]:
        raise CardDataError("the actions are relocate, project, redraw, animal")
    if [(a.name, a.tiles) for a in data.animals] != [
        ("squirrel", 6),
        ("duck", 5),
        ("fox", 4),
        ("deer", 3),
    ]:
        raise CardDataError("18 animal tiles: 6 squirrels, 5 ducks, 4 foxes, 3 deer")
    if len(cards) != CELLS:
        raise CardDataError(f"{CELLS} area cards, not {len(cards)}")
    wild = [c for c in cards if c.tree == WILD]
    if len(wild) != 1 or wild[0].value != 10 or wild[0].symbolic:
        raise CardDataError("exactly one wild card, of value 10, not symbolic")
    for tree, name in enumerate(data.trees):
        own = [c for c in cards if c.tree == tree]
        if len(own) != 7:
            raise CardDataError(f"{name}: 7 cards, not {len(own)}")
        if [c.value for c in own].count(1) != 1:
            raise CardDataError(f"{name}: exactly one value-1 card")
        if not any(c.value == 2 for c in own):
            raise CardDataError(f"{name}: at least one value-2 card")
        symbolic = [c for c in own if c.symbolic]
        if len(symbolic) != 1 or symbolic[0].value != 7:
            raise CardDataError(f"{name}: exactly one symbolic card, of value 7")
        if any(c.value == 7 and not c.symbolic for c in own):
            raise CardDataError(f"{name}: value 7 is the symbolic card's")
    if len(projects) != 12:
        raise CardDataError(f"12 project cards, not {len(projects)}")
    for p in projects:
        if p.points < 1 or (not any(p.animals) and not any(p.facilities)):
            raise CardDataError(f"project {p.id}: needs points and at least one object")
    printed = {
        (11, (1, 0, 0, 0), (0, 0, 2)),
        (8, (0, 0, 0, 0), (1, 1, 1)),
        (12, (0, 0, 0, 2), (0, 0, 0)),
    }
    if not printed <= {(p.points, p.animals, p.facilities) for p in projects}:
        raise CardDataError("the three project cards the rulebook prints must be present")


def load(path: Path = DATA_FILE) -> DataFile:
    return msgspec.json.decode(path.read_bytes(), type=DataFile)


_DATA = load()
TREES: tuple[str, ...] = tuple(_DATA.trees)
FACILITIES: tuple[str, ...] = tuple(_DATA.facilities)
ACTIONS: tuple[str, ...] = tuple(_DATA.actions)
ANIMALS: tuple[str, ...] = tuple(a.name for a in _DATA.animals)
CARDS: tuple[Card, ...] = tuple(_card(i, c, _DATA) for i, c in enumerate(_DATA.cards))
PROJECTS: tuple[Project, ...] = tuple(
    Project(
        i,
        p.points,
        _counts(list(ANIMALS), p.animals, "animal"),
        _counts(list(FACILITIES), p.facilities, "facility"),
    )
    for i, p in enumerate(_DATA.projects)
)
_validate(_DATA, list(CARDS), list(PROJECTS))

# Tile ids 0..17 in data-file order: 6 squirrels, then 5 ducks, 4 foxes, 3 deer.
TILE_ANIMAL: tuple[int, ...] = tuple(
    kind for kind, a in enumerate(_DATA.animals) for _ in range(a.tiles)
)
ACTION_RELOCATE, ACTION_PROJECT, ACTION_REDRAW, ACTION_ANIMAL = range(4)


def tree_name(tree: int) -> str:
    return "wild" if tree == WILD else TREES[tree]


def card_name(card: int) -> str:
    c = CARDS[card]
    return f"{tree_name(c.tree)} {c.value}"


def cell_name(cell: int) -> str:
    """1-based row and column, as a player would count them."""
    return f"r{cell // SIZE + 1}c{cell % SIZE + 1}"


CARD_NAMES: tuple[str, ...] = tuple(card_name(card) for card in range(len(CARDS)))
CELL_NAMES: tuple[str, ...] = tuple(cell_name(cell) for cell in range(CELLS))


def project_text(project: int) -> str:
    p = PROJECTS[project]
    parts = [f"{n} {ANIMALS[i]}" for i, n in enumerate(p.animals) if n]
    parts += [f"{n} {FACILITIES[i]}" for i, n in enumerate(p.facilities) if n]
    return f"{' + '.join(parts)} = {p.points}"


def catalog() -> dict[str, object]:
    return {
        "trees": list(TREES),
        "facilities": list(FACILITIES),
        "actions": list(ACTIONS),
        "animals": [msgspec.to_builtins(a) for a in _DATA.animals],
        "cards": [{"id": i, **msgspec.to_builtins(c)} for i, c in enumerate(_DATA.cards)],
        "projects": [{"id": i, **msgspec.to_builtins(p)} for i, p in enumerate(_DATA.projects)],
        "size": SIZE,
    }
