"""The generator follows the Structs: every shape a game may adopt gets its GraphQL type.

Synthetic Structs stand in for the changes to come (Literal and Enum fields, tagged unions of
detail Structs, field docs, dicts): each maps as docs/api.md promises, and answers and inputs
round-trip through a real strawberry schema.
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Annotated, Any, Literal

import msgspec
import msgspec.inspect as mi
import strawberry

from service.api.graphql.struct_types import Builder, enum_value_name, input_json


class Phase(IntEnum):
    SETUP = 0
    PLAYING = 1


class Castle(msgspec.Struct, tag="castle", rename="camel"):
    letter: str
    line: Literal["row", "column"]


class Glade(msgspec.Struct, tag="glade", rename="camel"):
    glade_id: str
    cells: list[tuple[int, int]]


class Item(msgspec.Struct, rename="camel"):
    """A score item."""

    source: Literal["castle", "glade", "extraTurn"]
    points: Annotated[int, msgspec.Meta(ge=0, description="Never negative.")]
    phase: Phase
    detail: Castle | Glade | None = None
    seats: tuple[int, ...] = ()
    notes: dict[str, int] = {}
    again: Literal["glade", "castle", "extraTurn"] = "castle"
    sides: list[Annotated[Literal["left", "right"], msgspec.Meta(title="side")]] = []


BUILDER = Builder({})
ITEM = BUILDER.object(mi.type_info(Item))  # type: ignore[arg-type]
ITEM_INPUT = BUILDER.input_object(mi.type_info(Item))  # type: ignore[arg-type]


@strawberry.type
class Query:
    @strawberry.field(graphql_type=list[ITEM])
    def items(self) -> Any:
        return [
            Item("castle", 3, Phase.PLAYING, Castle("H", "column"), (0, 2)),
            Item("extraTurn", 0, Phase.SETUP),
            Item("glade", 4, Phase.PLAYING, Glade("G7", [(1, 2)])),
        ]

    @strawberry.field(graphql_type=str)
    def echo(self, item: ITEM_INPUT) -> Any:  # type: ignore[valid-type]
        return msgspec.json.encode(msgspec.convert(input_json(item), type=Item)).decode()


SCHEMA = strawberry.Schema(query=Query)


def test_literals_and_enums_become_enums_and_sequences_lists() -> None:
    sdl = SCHEMA.as_str()
    assert "enum ItemSource {\n  CASTLE\n  EXTRA_TURN\n  GLADE\n}" in sdl
    assert "enum ItemPhase {\n  SETUP\n  PLAYING\n}" in sdl
    assert "enum CastleLine {" in sdl
    assert "again: ItemSource!" in sdl and "sides: [ItemSide!]!" in sdl
    assert "seats: [Int!]!" in sdl and "cells: [[Int!]!]!" in sdl
    assert '"""Never negative."""\n  points: Int!' in sdl
    assert "union ItemDetail = Castle | Glade" in sdl and "detail: ItemDetail\n" in sdl
    assert "notes: JSON!" in sdl and BUILDER.untyped == ["Item.notes", "Item.detail", "Item.notes"]


def test_answers_come_straight_from_the_structs() -> None:
    query = """{ items { source points phase seats notes detail { __typename
      ... on Castle { letter line } ... on Glade { gladeId cells } } } }"""
    result = SCHEMA.execute_sync(query)
    assert result.errors is None, result.errors
    assert result.data == {
        "items": [
            {"source": "CASTLE", "points": 3, "phase": "PLAYING", "seats": [0, 2], "notes": {},
             "detail": {"__typename": "Castle", "letter": "H", "line": "COLUMN"}},
            {"source": "EXTRA_TURN", "points": 0, "phase": "SETUP", "seats": [], "notes": {},
             "detail": None},
            {"source": "GLADE", "points": 4, "phase": "PLAYING", "seats": [], "notes": {},
             "detail": {"__typename": "Glade", "gladeId": "G7", "cells": [[1, 2]]}},
        ]
    }  # fmt: skip


def test_inputs_carry_defaults_and_give_back_the_json_values() -> None:
    sdl = SCHEMA.as_str()
    assert "seats: [Int!]! = []" in sdl
    result = SCHEMA.execute_sync(
        "{ echo(item: {source: EXTRA_TURN, points: 1, phase: PLAYING, detail: null, notes: {}}) }"
    )
    assert result.errors is None, result.errors
    echoed = msgspec.json.decode(result.data["echo"], type=Item)  # type: ignore[index]
    assert echoed == Item("extraTurn", 1, Phase.PLAYING)


def test_enum_value_names_are_upper_snake_case_graphql_names() -> None:
    assert enum_value_name("fourOrFewerTownCards") == "FOUR_OR_FEWER_TOWN_CARDS"
    assert enum_value_name("red tree") == "RED_TREE"
    assert enum_value_name("2p") == "_2P"
    assert isinstance(Phase.SETUP, Enum)
