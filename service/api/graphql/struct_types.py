"""Typed GraphQL generated from the games' msgspec Structs, so it never drifts from the rules.

`msgspec.inspect` describes each game's view, move union and create options, and the engine's
score items; this module turns those descriptions into strawberry types, so the SDL follows the
Structs with no edit here (the JSON Schemas in schema/games/ come from the same Structs):

- a Struct becomes an object type (an input type where clients send it) whose field names are
  the Struct's JSON names; outputs resolve straight from the Structs the engine returns, so a
  typed read adds GraphQL field resolution and nothing else;
- a `Literal` of strings or an `Enum` becomes an enum whose values are the JSON strings in
  UPPER_SNAKE_CASE, one per game and value set, named for the first field that uses it or
  for its `msgspec.Meta(title=...)`; lists and one-item-type tuples become lists; `X | None` is
  nullable; a field's `Meta(description=...)` becomes its GraphQL description;
- names carry the game's prefix (`TreelineSeatView`, `AvenueTakeTile`, `TreelingsColour`), so
  two games may use the same Struct or field names;
- anything else (dicts, `Any`, mixed unions) becomes the JSON scalar and is named in `UNTYPED`.

Moves are tagged Structs: each move type has a `type` field with its tag, and a client sends a
typed move as `TypedMoveInput`, a `@oneOf` input with one field per move type per game (a move
without fields takes `true`). `move_json` turns it back into the JSON move, so both forms meet
the same engine checks, idempotency and history. Move tags are unique across games (checked
here), so a typed move sent to another game's table is refused as MALFORMED_MOVE.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum
from typing import Annotated, Any, Optional, Union, cast

import msgspec
import msgspec.inspect as mi
import strawberry
from strawberry.scalars import JSON

from service.engine import Game, ScoreEntry
from service.engine.casing import convert, enum_value_name
from service.engine.play import to_move
from service.games import games

SEQUENCES = (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)


def pascal(text: str) -> str:
    """`extra_turn`, `extraTurn` -> `ExtraTurn`."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[\W_]+", text) if part)


def of_game(type_name: str, prefix: str) -> bool:
    """Whether a generated type name belongs to the game named by `prefix` (`Treeline` owns
    `TreelineView`, not `TreelingsView`)."""
    return type_name.startswith(prefix) and type_name[len(prefix) : len(prefix) + 1].isupper()


def _optional(annotation: Any) -> Any:
    return Optional[annotation]  # noqa: UP045 (the annotation may be an Annotated union)


def _union(name: str, members: list[Any]) -> Any:
    return Annotated[Union[tuple(members)], strawberry.union(name)]  # noqa: UP007


def _tag(value: str) -> Callable[[], str]:
    def tag() -> str:
        return value

    return tag


def _attribute(name: str, annotation: Any) -> Callable[..., Any]:
    """A resolver that reads the Struct's attribute `name` (a twin field's)."""

    def resolve(self: Any) -> Any:
        return getattr(self, name)

    resolve.__annotations__ = {"return": annotation}
    return resolve


class Builder:
    """Strawberry types for Structs, each built once and named uniquely."""

    def __init__(self, prefixes: dict[str, str]) -> None:
        self.prefixes = prefixes  # game package -> name prefix
        self.objects: dict[type, Any] = {}
        self.inputs: dict[type, Any] = {}
        self.enums: dict[str, tuple[object, type[Enum]]] = {}
        self.untyped: list[str] = []
        # view Struct -> (twin prefix, its fields that need a twin named for the game)
        self.twins: dict[type, tuple[str, set[str]]] = {}

    def prefix(self, cls: type) -> str:
        """The game's prefix for a Struct of a game package, "" for the engine's own."""
        module = cls.__module__ + "."
        return next((p for pkg, p in self.prefixes.items() if module.startswith(pkg + ".")), "")

    def name(self, cls: type) -> str:
        prefix = self.prefix(cls)
        return cls.__name__ if of_game(cls.__name__, prefix) else prefix + cls.__name__

    def output(self, t: mi.Type, owner: type, field: str) -> Any:
        return self._map(t, owner, field, self.object)

    def input(self, t: mi.Type, owner: type, field: str) -> Any:
        return self._map(t, owner, field, self.input_object)

    def _map(self, t: mi.Type, owner: type, field: str, struct: Callable[[Any], Any]) -> Any:
        if isinstance(t, mi.Metadata):  # Meta(title=...) names the field's type
            title = (t.extra_json_schema or {}).get("title")
            return self._map(t.type, owner, title or field, struct)
        scalar = {mi.BoolType: bool, mi.IntType: int, mi.FloatType: float, mi.StrType: str}
        if type(t) in scalar:
            return scalar[type(t)]
        if isinstance(t, mi.StructType):
            return struct(t)
        if isinstance(t, SEQUENCES):
            return list[self._map(t.item_type, owner, field, struct)]  # type: ignore[misc]
        if isinstance(t, mi.TupleType) and t.item_types and len(set(map(repr, t.item_types))) == 1:
            return list[self._map(t.item_types[0], owner, field, struct)]  # type: ignore[misc]
        if isinstance(t, mi.LiteralType) and all(isinstance(v, str) for v in t.values):
            return self.enum(t.values, owner, field)
        if isinstance(t, mi.LiteralType) and all(isinstance(v, int) for v in t.values):
            return int
        if isinstance(t, mi.EnumType):
            return self.enum(t.cls, owner, field)
        if isinstance(t, mi.UnionType):
            members = [m for m in t.types if not isinstance(m, mi.NoneType)]
            structs = [m for m in members if isinstance(m, mi.StructType)]
            if len(members) == 1:
                found = self._map(members[0], owner, field, struct)
            elif struct == self.object and len(structs) == len(members):
                found = _union(self._base(owner) + pascal(field), [struct(m) for m in structs])
            else:
                found = self._untyped(owner, field)
            return found if len(members) == len(t.types) else _optional(found)
        return self._untyped(owner, field)

    def _untyped(self, owner: type, field: str) -> Any:
        """The JSON scalar, for a shape GraphQL cannot say (a dict, Any, a union of scalars,
        a union in an input); UNTYPED names each such field."""
        self.untyped.append(f"{owner.__name__}.{field}")
        return JSON

    def _base(self, owner: type) -> str:
        return self.prefix(owner) or owner.__name__

    def enum(self, key: tuple[Any, ...] | type[Enum], owner: type, field: str) -> type[Enum]:
        """One enum per value set and game, named for the first field that uses it:
        `<Game><Field>` (or its Meta title), else `<Game><Struct><Field>`."""
        base = self._base(owner)
        for name, (found, made) in self.enums.items():
            if found == key and of_game(name, base):
                return made
        if isinstance(key, tuple):
            members = {enum_value_name(v): v for v in key}
            names = [base + pascal(field), self.name(owner) + pascal(field)]
        else:
            members = {m.name: m.value for m in key}
            names = [base + key.__name__, self.name(owner) + key.__name__]
        if len(members) != len(key):
            raise TypeError(f"{owner.__name__}.{field}: values that share an enum name")
        for name in names:
            if name not in self.enums:
                made = strawberry.enum(cast(type[Enum], Enum(name, members)), name=name)
                self.enums[name] = (key, made)
                return made
        raise TypeError(f"{owner.__name__}.{field}: no unique GraphQL name for its enum")

    def object(self, t: mi.StructType) -> Any:
        if t.cls not in self.objects:
            cls = t.cls
            namespace = self._fields(t, self.output)
            namespace["is_type_of"] = staticmethod(lambda value, _: isinstance(value, cls))
            if t.tag_field is not None:
                namespace["tag_"] = strawberry.field(
                    name=t.tag_field,
                    resolver=_tag(str(t.tag)),
                    description="The tag that names this type in the JSON form.",
                )
            made = type(self.name(cls), (), namespace)
            self.objects[cls] = strawberry.type(made, name=made.__name__, description=_doc(cls))
        return self.objects[t.cls]

    def input_object(self, t: mi.StructType) -> Any:
        if t.cls not in self.inputs:
            name = self.name(t.cls) + "Input"
            made = type(name, (), self._fields(t, self.input))
            self.inputs[t.cls] = strawberry.input(made, name=name, description=_doc(t.cls))
        return self.inputs[t.cls]

    def _fields(self, t: mi.StructType, kind: Callable[[mi.Type, type, str], Any]) -> Any:
        namespace: dict[str, Any] = {"__module__": __name__, "__annotations__": {}}
        for f in t.fields:
            namespace["__annotations__"][f.name] = kind(f.type, t.cls, f.name)
            extra = getattr(f.type, "extra_json_schema", None) or {}
            defaults: dict[str, Any] = {}
            if kind == self.input and f.default_factory is not msgspec.NODEFAULT:
                defaults["default_factory"] = f.default_factory
            elif kind == self.input and f.default is not msgspec.NODEFAULT:
                defaults["default"] = f.default
            namespace[f.name] = strawberry.field(
                name=f.encode_name, description=extra.get("description"), **defaults
            )
            prefix, twinned = self.twins.get(t.cls, ("", set()))
            if kind == self.output and f.encode_name in twinned:
                twin = prefix + pascal(f.encode_name)
                namespace[f"{f.name}__twin"] = strawberry.field(
                    name=twin,
                    resolver=_attribute(f.name, namespace["__annotations__"][f.name]),
                    description=f"`{f.encode_name}` under a name no other game's view uses, "
                    "so a document that asks every view for it needs no alias.",
                )
        return namespace


def _doc(cls: type) -> str | None:
    doc = cls.__dict__.get("__doc__")
    return doc if isinstance(doc, str) else None


def _struct(cls: Any) -> mi.StructType:
    found = mi.type_info(cls)
    assert isinstance(found, mi.StructType), f"{cls} is not a Struct"
    return found


def move_structs(game: Game[Any, Any]) -> list[mi.StructType]:
    found = mi.type_info(game.move_type)
    members = found.types if isinstance(found, mi.UnionType) else (found,)
    assert all(isinstance(m, mi.StructType) for m in members), "moves are tagged Structs"
    return cast(list[mi.StructType], list(members))


def game_prefix(game: Game[Any, Any]) -> tuple[str, str]:
    """The game's package and its prefix for names: `service.games.avenue` -> `Avenue`."""
    package = type(game).__module__.rpartition(".")[0]
    return package, pascal(package.rpartition(".")[2])


def _one_of(name: str, description: str, fields: dict[str, Any]) -> Any:
    """A `@oneOf` input: each field nullable, no defaults, exactly one given."""
    namespace: dict[str, Any] = {"__module__": __name__, "__annotations__": {}}
    for field_name, annotation in fields.items():
        namespace["__annotations__"][field_name] = _optional(annotation)
        namespace[field_name] = strawberry.field(name=field_name, default=strawberry.UNSET)
    made = type(name, (), namespace)
    return strawberry.input(made, name=name, one_of=True, description=description)


BUILDER = Builder(dict(game_prefix(game) for game in games().values()))
MOVES: dict[str, mi.StructType] = {}  # TypedMoveInput's fields: the move Struct of each
INPUT_FIELDS: dict[type, str] = {}  # each move Struct's TypedMoveInput field
OPTIONS: dict[str, str] = {}  # TypedOptionsInput's fields: the game kind of each


def _twin_view_fields() -> None:
    """The view fields whose name two games' views share with different types (`phase`): each
    also gets a twin named for its game (`treelingsPhase`), so one document can ask every view
    without aliases (a GraphQL document may not ask one name with two types)."""
    fields: dict[str, set[str]] = {}
    for game in games().values():
        for f in _struct(game.view_type).fields:
            fields.setdefault(f.encode_name, set()).add(repr(f.type))
    shared = {name for name, types in fields.items() if len(types) > 1}
    for game in games().values():
        prefix = game_prefix(game)[1]
        view = _struct(game.view_type)
        twinned = {f.encode_name for f in view.fields if f.encode_name in shared}
        BUILDER.twins[view.cls] = (prefix[:1].lower() + prefix[1:], twinned)


def _generate() -> tuple[list[Any], list[Any], list[Any], dict[str, Any], dict[str, Any]]:
    """Every game's view, move and options types, and the fields of the `@oneOf` inputs."""
    views, moves, options, move_inputs, options_inputs = [], [], [], {}, {}
    _twin_view_fields()
    for kind, game in games().items():
        prefix = game_prefix(game)[1]
        field = prefix[:1].lower() + prefix[1:]
        views.append(BUILDER.object(_struct(game.view_type)))
        for move in move_structs(game):
            moves.append(BUILDER.object(move))
            MOVES[field + pascal(str(move.tag))] = move
            INPUT_FIELDS[move.cls] = field + pascal(str(move.tag))
            move_inputs[field + pascal(str(move.tag))] = (
                BUILDER.input_object(move) if move.fields else bool
            )
        OPTIONS[field] = kind
        options.append(BUILDER.object(_struct(game.options_type)))
        options_inputs[field] = BUILDER.input_object(_struct(game.options_type))
    if len({str(move.tag) for move in MOVES.values()}) != len(MOVES):
        raise TypeError("two games share a move tag: a typed move could play in either game")
    return views, moves, options, move_inputs, options_inputs


_views, _moves, _options, _move_inputs, _options_inputs = _generate()
GameView = _union("GameView", _views)
TypedMove = _union("TypedMove", _moves)
GameOptions = _union("GameOptions", _options)
TypedMoveInput = _one_of(
    "TypedMoveInput",
    "A move as typed fields: exactly one field, named for the game and the move type. A move "
    "type without fields takes `true`.",
    _move_inputs,
)
TypedOptionsInput = _one_of(
    "TypedOptionsInput",
    "Create options as typed fields: exactly one field, the one of the game's kind.",
    _options_inputs,
)
Breakdown = BUILDER.output(
    next(f.type for f in _struct(ScoreEntry).fields if f.name == "breakdown"),
    ScoreEntry,
    "breakdown",
)
UNTYPED = tuple(BUILDER.untyped)


class TypedInputError(ValueError):
    """A typed input that cannot be this game's JSON: its message says why."""


def input_json(value: Any) -> Any:
    """A generated input's value as the JSON its Struct decodes (JSON names, enum values)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, list):
        return [input_json(item) for item in value]
    definition = getattr(value, "__strawberry_definition__", None)
    if definition is None:
        return value
    return {
        f.graphql_name or f.name: input_json(getattr(value, f.python_name))
        for f in definition.fields
    }


def _given(value: Any) -> tuple[str, Any]:
    """The one field a `@oneOf` input holds (GraphQL checked there is exactly one)."""
    return next(
        (name, v) for name, v in vars(value).items() if v is not None and v is not strawberry.UNSET
    )


def move_json(value: Any) -> dict[str, Any]:
    """The JSON move a `TypedMoveInput` stands for."""
    name, given = _given(value)
    struct = MOVES[name]
    if given is False:
        raise TypedInputError(f"{name} takes true: the move has no fields")
    fields = {} if given is True else input_json(given)
    return {str(struct.tag_field): struct.tag, **fields}


def options_json(value: Any, kind: str) -> dict[str, Any]:
    """The JSON options a `TypedOptionsInput` stands for, if they are `kind`'s."""
    name, given = _given(value)
    options_kind = OPTIONS[name]
    if options_kind != kind:
        raise TypedInputError(f"typedOptions.{name} are {options_kind} options, not {kind}'s")
    options: dict[str, Any] = input_json(given)
    return options


def move_input(move: msgspec.Struct) -> dict[str, Any]:
    """A move Struct as `TypedMoveInput` takes it, as a GraphQL variable's JSON (enum values by
    their typed names, `true` for a move without fields): `move_json` of it is the move."""
    name = INPUT_FIELDS[type(move)]
    struct = MOVES[name]
    if not struct.fields:
        return {name: True}
    fields = msgspec.to_builtins(move)
    fields.pop(struct.tag_field, None)
    return {name: convert(struct, fields, to_names=True)}


def typed_move(game: Game[Any, Any], move: Any) -> Any:
    """A move as the history stores it (JSON) as its Struct, for `typedMove`."""
    return to_move(game, move)
