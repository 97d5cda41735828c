"""Enum values in two casings: a move's JSON strings (`"green"`) and the
GraphQL enum names typed moves use (`GREEN`), walked over a move's msgspec type.

`json_move` reads a JSON move whose enum strings may be given by their typed names, as the JSON
form the engine decodes; `names` is the other way, a value in the typed form. Only what the typed
inputs type as enums is renamed (a `Literal` of strings, an `Enum`): everything else is left as
it is, so both directions follow service/api/graphql/struct_types.py's mapping of the same Structs.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import msgspec.inspect as mi

SEQUENCES = (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)


def enum_value_name(value: str) -> str:
    """A JSON string as a GraphQL enum value: `fourOrFewerTownCards` -> `FOUR_OR_FEWER_...`."""
    name = re.sub(r"\W+", "_", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", value)).strip("_").upper()
    return name if name[:1].isalpha() else f"_{name}"


def _enum_names(t: mi.Type) -> dict[str, Any] | None:
    """An enum type's values by typed name, or None for a type that is no enum."""
    if isinstance(t, mi.LiteralType) and all(isinstance(v, str) for v in t.values):
        return {enum_value_name(str(v)): v for v in t.values}
    if isinstance(t, mi.EnumType):
        return {m.name: m.value for m in t.cls}
    return None


def convert(t: mi.Type, value: Any, to_names: bool) -> Any:
    """`value` of type `t` with its enum strings as typed names (`to_names`) or as JSON values
    (a typed name read back as its value; anything unknown is left for the decoder to refuse)."""
    if isinstance(t, mi.Metadata):
        return convert(t.type, value, to_names)
    names = _enum_names(t)
    if names is not None:
        if to_names:
            found = next((n for n, v in names.items() if v == value), None)
            return value if found is None else found
        return names.get(value, value) if isinstance(value, str) else value
    if isinstance(t, mi.StructType) and isinstance(value, dict):
        fields = {f.encode_name: f.type for f in t.fields}
        return {k: convert(fields[k], v, to_names) if k in fields else v for k, v in value.items()}
    item = _item_type(t)
    if item is not None and isinstance(value, list | tuple):
        return [convert(item, v, to_names) for v in value]
    if isinstance(t, mi.UnionType):
        members = [m for m in t.types if not isinstance(m, mi.NoneType)]
        if len(members) == 1 and value is not None:
            return convert(members[0], value, to_names)
    return value  # a scalar, or a shape the typed inputs leave as JSON


def _item_type(t: mi.Type) -> mi.Type | None:
    if isinstance(t, SEQUENCES):
        return t.item_type
    if isinstance(t, mi.TupleType) and t.item_types and len(set(map(repr, t.item_types))) == 1:
        return t.item_types[0]
    return None


@cache
def move_structs(move_type: Any) -> tuple[mi.StructType, ...]:
    """The tagged Structs of a game's move type."""
    found = mi.type_info(move_type)
    members = found.types if isinstance(found, mi.UnionType) else (found,)
    assert all(isinstance(m, mi.StructType) for m in members), "moves are tagged Structs"
    return tuple(m for m in members if isinstance(m, mi.StructType))


def json_move(move_type: Any, raw: object) -> object:
    """A JSON move whose enum strings may be typed names (`"GREEN"`), with JSON values
    (`"green"`); a move that names no move type of the game is returned as it is."""
    if not isinstance(raw, dict):
        return raw
    for struct in move_structs(move_type):
        if raw.get(struct.tag_field) == struct.tag:
            return convert(struct, raw, to_names=False)
    return raw
