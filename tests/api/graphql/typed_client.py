"""A client of the typed GraphQL fields, built with gql's DSL from the committed SDL only.

Documents select every field of the typed types (views, moves, score items) that one game kind
can answer, so the tests see everything the SDL promises; each document is validated against
schema/schema.graphql before it is sent, as a generated client would be.
"""

from __future__ import annotations

from typing import Any

from gql.dsl import (
    DSLField,
    DSLFragment,
    DSLInlineFragment,
    DSLMetaField,
    DSLMutation,
    DSLQuery,
    DSLSchema,
    DSLVariableDefinitions,
    dsl_gql,
)
from graphql import (
    GraphQLEnumType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    GraphQLUnionType,
    build_schema,
    get_named_type,
    print_ast,
    validate,
)

from service.api.contracts import SCHEMA_DIR
from service.api.graphql.struct_types import game_prefix, of_game
from service.games import games

SDL: GraphQLSchema = build_schema((SCHEMA_DIR / "schema.graphql").read_text())
DS = DSLSchema(SDL)
PREFIXES = {kind: game_prefix(game)[1] for kind, game in games().items()}  # Avenue, Treeline
Selection = DSLField | DSLFragment | DSLInlineFragment | DSLMetaField


def every_field(type_name: str, prefix: str) -> list[Selection]:
    """All fields of an object type, nested objects and `prefix`'s union members included."""
    selections: list[Selection] = []
    for name, field in SDL.get_type(type_name).fields.items():  # type: ignore[union-attr]
        selections.append(_select(getattr(DS, type_name), name, field.type, prefix))
    return selections


def _select(parent: Any, name: str, field_type: Any, prefix: str) -> Selection:
    named = get_named_type(field_type)
    dsl: DSLField = getattr(parent, name)
    if isinstance(named, GraphQLObjectType):
        return dsl.select(*every_field(named.name, prefix))
    if isinstance(named, GraphQLUnionType):
        return dsl.select(DSLMetaField("__typename"), *on_members(named, prefix))
    return dsl


def on_members(union: GraphQLUnionType, prefix: str) -> list[Selection]:
    return [
        DSLInlineFragment().on(getattr(DS, member.name)).select(*every_field(member.name, prefix))
        for member in union.types
        if of_game(member.name, prefix)
    ]


def game_query(kind: str) -> str:
    """`game(id:)` with the JSON fields and every typed field beside them."""
    prefix, var = PREFIXES[kind], DSLVariableDefinitions()
    game = DS.Game
    query = DSLQuery(
        DS.Query.game(id=var.id).select(
            game.version,
            game.status,
            game.toAct,
            game.viewer,
            game.state,
            _select(game, "view", SDL.get_type("Game").fields["view"].type, prefix),  # type: ignore[union-attr]
            game.legalMoves.select(
                DS.LegalMove.move,
                DS.LegalMove.label,
                DS.LegalMove.typedMove.select(
                    DSLMetaField("__typename"),
                    *on_members(SDL.get_type("TypedMove"), prefix),  # type: ignore[arg-type]
                ),
            ),
            game.scores.select(
                DS.Scores.final,
                DS.Scores.winners,
                DS.Scores.entries.select(
                    DS.ScoreEntry.seat,
                    DS.ScoreEntry.points,
                    DS.ScoreEntry.tiebreak,
                    DS.ScoreEntry.breakdown,
                    DS.ScoreEntry.typedBreakdown.select(*every_field("ScoreItem", prefix)),
                ),
            ),
        )
    )
    query.variable_definitions = var
    return checked(dsl_gql(query))


def history_query(kind: str) -> str:
    var = DSLVariableDefinitions()
    typed_move = DS.HistoryEntry.typedMove.select(
        DSLMetaField("__typename"),
        *on_members(SDL.get_type("TypedMove"), PREFIXES[kind]),  # type: ignore[arg-type]
    )
    query = DSLQuery(
        DS.Query.game(id=var.id).select(
            DS.Game.history.select(DS.HistoryEntry.version, DS.HistoryEntry.move, typed_move)
        )
    )
    query.variable_definitions = var
    return checked(dsl_gql(query))


def catalog_query() -> str:
    """Every game's create options, as JSON and typed."""
    union = SDL.get_type("GameOptions")
    members = [
        DSLInlineFragment().on(getattr(DS, member.name)).select(*every_field(member.name, ""))
        for member in union.types  # type: ignore[union-attr]
    ]
    typed_options = DS.GameInfo.typedOptions.select(DSLMetaField("__typename"), *members)
    query = DSLQuery(DS.Query.catalog.select(DS.GameInfo.kind, DS.GameInfo.options, typed_options))
    return checked(dsl_gql(query))


def apply_mutation() -> str:
    var = DSLVariableDefinitions()
    result = DS.Mutation.applyMove(input=var.input).select(
        DSLMetaField("__typename"),
        DSLInlineFragment()
        .on(DS.MoveApplied)
        .select(
            DS.MoveApplied.game.select(DS.Game.id, DS.Game.version, DS.Game.status, DS.Game.toAct)
        ),
        DSLInlineFragment()
        .on(DS.MoveRejected)
        .select(DS.MoveRejected.code, DS.MoveRejected.message),
    )
    mutation = DSLMutation(result)
    mutation.variable_definitions = var
    return checked(dsl_gql(mutation))


def checked(request: Any) -> str:
    """The document's text, once it is valid against the committed SDL."""
    errors = validate(SDL, request.document)
    assert not errors, errors
    return print_ast(request.document)


def as_json(value: Any, field_type: Any) -> Any:
    """A typed answer as the JSON form writes it: enum names back to their JSON strings
    (`enumValues` from the served schema), `__typename` dropped."""
    if value is None:
        return None
    if isinstance(field_type, GraphQLNonNull):
        return as_json(value, field_type.of_type)
    if isinstance(field_type, GraphQLList):
        return [as_json(item, field_type.of_type) for item in value]
    if isinstance(field_type, GraphQLEnumType):
        return JSON_VALUES[field_type.name][value]
    if isinstance(field_type, GraphQLUnionType):
        field_type = SDL.get_type(value["__typename"])
    if isinstance(field_type, GraphQLObjectType):
        return {
            key: as_json(item, field_type.fields[key].type)
            for key, item in value.items()
            if key != "__typename" and not _twin(value, key)
        }
    return value


def _twin(value: dict[str, Any], key: str) -> bool:
    """Whether `key` is a view field's twin named for its game (`treelingsPhase` beside
    `phase`): then it must say what the field says."""
    for prefix in PREFIXES.values():
        rest = key.removeprefix(prefix[:1].lower() + prefix[1:])
        original = rest[:1].lower() + rest[1:]
        if rest != key and original in value:
            assert value[key] == value[original], (key, value[key], value[original])
            return True
    return False


def _json_values() -> dict[str, dict[str, Any]]:
    from service.api.graphql.schema import build_schema as served

    return {
        name: {value_name: value.value for value_name, value in t.values.items()}
        for name, t in served()._schema.type_map.items()
        if isinstance(t, GraphQLEnumType)
    }


JSON_VALUES = _json_values()


def move_input(typed_move: dict[str, Any]) -> dict[str, Any]:
    """A typed legal move as `TypedMoveInput`: its fields under the field its type names."""
    name = typed_move["__typename"]
    fields = {k: v for k, v in typed_move.items() if k not in ("__typename", "type")}
    return {name[:1].lower() + name[1:]: fields or True}
