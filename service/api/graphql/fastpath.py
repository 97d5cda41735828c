"""A compiled plan for the two hot GraphQL operations: `game(id:)` and `applyMove(input:)`.

strawberry and graphql-core cost about a millisecond per request in Python that does nothing
for these two operations (docs/performance.md). For a document that is valid and uses only
what this module understands (one operation, one root field, arguments from variables,
fields, aliases, `__typename`, inline fragments on the result union; a message's `text`
without its `language` argument), the plan builds the very answer graphql-core would, straight
from the game service. Anything else, and any variable
that does not coerce plainly, goes to strawberry untouched. tests/api/graphql/test_fastpath.py proves
the answers equal, byte for byte, for every document shape the plan accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    GraphQLError,
    InlineFragmentNode,
    NonNullTypeNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableNode,
)

from service.api.edge.localized import message_json, refusal_message, said_detail
from service.api.graphql.errors import REJECT_CODES, public_code
from service.core import Applied, Caller, GameService, LoadedGame
from service.engine.texts import ENGLISH, Message
from service.refusals import Code, Refused

INT32 = range(-(2**31), 2**31)


@dataclass(frozen=True)
class Selection:
    key: str  # the response key (alias or field name)
    name: str
    children: tuple[Selection, ...] = ()
    on: str | None = None  # for inline fragments: the type condition


@dataclass(frozen=True)
class Plan:
    root: FieldNode
    operation: str  # "game" or "applyMove"
    variable: str  # the variable holding `id` or `input`
    selections: tuple[Selection, ...]
    name: str | None  # the operation's name, which a request's operationName may repeat


GAME_FIELDS = {
    "__typename", "id", "kind", "version", "status", "players", "toAct", "viewer", "state",
    "legalMoves", "scores", "spectatorDelay",
}  # fmt: skip
MESSAGE_FIELDS = {"__typename", "id", "params", "text"}  # `text(language:)`: strawberry's
CHILD_FIELDS = {
    "legalMoves": {"__typename", "move", "label", "labelMessage"},
    "scores": {"__typename", "final", "winners", "entries"},
    "entries": {
        "__typename", "seat", "points", "breakdown", "tiebreak", "team", "seatPoints",
        "detailMessages",
    },
    "MoveApplied": {"__typename", "replayed", "game"},
    "MoveRejected": {
        "__typename", "code", "message", "currentVersion", "reason", "rule", "localizedMessage",
    },
    "labelMessage": MESSAGE_FIELDS,
    "detailMessages": MESSAGE_FIELDS,
    "localizedMessage": MESSAGE_FIELDS,
    "params": {"__typename", "name", "type", "value"},
}  # fmt: skip
ROOTS = {
    (OperationType.QUERY, "game"): ("id", "ID"),
    (OperationType.MUTATION, "applyMove"): ("input", "ApplyMoveInput"),
}


class Unsupported(Exception):
    pass


def compile_plan(document: DocumentNode) -> Plan | None:
    """A plan for a document already known to be valid, or None."""
    try:
        return _compile(document)
    except Unsupported:
        return None


def _compile(document: DocumentNode) -> Plan:
    if len(document.definitions) != 1:
        raise Unsupported
    operation = document.definitions[0]
    if not isinstance(operation, OperationDefinitionNode) or operation.directives:
        raise Unsupported
    roots = _fields(operation.selection_set)
    if len(roots) != 1:
        raise Unsupported
    root = roots[0]
    arguments = root.arguments or ()
    if root.alias or root.directives or len(arguments) != 1:
        raise Unsupported
    argument, type_name = ROOTS.get((operation.operation, root.name.value), (None, None))
    value = arguments[0].value
    if argument != arguments[0].name.value or not isinstance(value, VariableNode):
        raise Unsupported
    declared = {d.variable.name.value: d for d in operation.variable_definitions or ()}
    definition = declared.get(value.name.value)
    if (
        definition is None
        or definition.default_value is not None
        or definition.directives
        or not isinstance(definition.type, NonNullTypeNode)
        or getattr(definition.type.type, "name", None) is None
        or definition.type.type.name.value != type_name  # type: ignore[union-attr]
    ):
        raise Unsupported
    if root.name.value == "game":
        children = _select(root.selection_set, GAME_FIELDS)
    else:
        children = _select_union(root.selection_set)
    name = operation.name.value if operation.name else None
    return Plan(root, root.name.value, value.name.value, children, name)


def _fields(selection_set: SelectionSetNode | None) -> list[FieldNode]:
    if selection_set is None:
        raise Unsupported
    fields = []
    for node in selection_set.selections:
        if not isinstance(node, FieldNode):
            raise Unsupported
        fields.append(node)
    return fields


def _select(selection_set: SelectionSetNode | None, allowed: set[str]) -> tuple[Selection, ...]:
    selections, keys = [], set()
    for field in _fields(selection_set):
        name, key = field.name.value, (field.alias or field.name).value
        if name not in allowed or field.arguments or field.directives or key in keys:
            raise Unsupported
        keys.add(key)
        children: tuple[Selection, ...] = ()
        if name == "game":
            children = _select(field.selection_set, GAME_FIELDS)
        elif name in CHILD_FIELDS:
            children = _select(field.selection_set, CHILD_FIELDS[name])
        selections.append(Selection(key, name, children))
    return tuple(selections)


def _select_union(selection_set: SelectionSetNode | None) -> tuple[Selection, ...]:
    """`applyMove`'s selections: `__typename` and inline fragments on either member."""
    if selection_set is None:
        raise Unsupported
    selections: list[Selection] = []
    keys: set[str] = set()
    for node in selection_set.selections:
        if isinstance(node, FieldNode) and node.name.value == "__typename":
            key = (node.alias or node.name).value
            if node.directives or key in keys:
                raise Unsupported
            keys.add(key)
            selections.append(Selection(key, "__typename"))
        elif (
            isinstance(node, InlineFragmentNode)
            and not node.directives
            and node.type_condition is not None
            and node.type_condition.name.value in ("MoveApplied", "MoveRejected")
        ):
            on = node.type_condition.name.value
            inner = _select(node.selection_set, CHILD_FIELDS[on])
            if {s.key for s in inner} & keys:
                raise Unsupported  # merging fields across fragments is graphql-core's job
            keys |= {s.key for s in inner if on == "MoveApplied"}
            selections.append(Selection("", "", inner, on))
        else:
            raise Unsupported
    return tuple(selections)


def _id(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _optional(value: object, kind: type) -> bool:
    return value is None or (isinstance(value, kind) and not isinstance(value, bool))


async def run(
    plan: Plan,
    variables: dict[str, Any],
    service: GameService,
    caller: Caller,
    language: str = ENGLISH,
) -> dict[str, Any] | None:
    """The answer as graphql-core would give it, or None to let strawberry answer. `caller`
    as strawberry's resolvers make it (types.context_caller): a spectator's game is read
    delayed by the same `GameService.read`."""
    if set(variables) - {plan.variable}:
        return None
    value = variables.get(plan.variable)
    try:
        if plan.operation == "game":
            game_id = _id(value)
            if game_id is None:
                return None
            try:
                loaded = await service.read(game_id, caller)
            except Refused as refused:
                if refused.code is not Code.NOT_FOUND:
                    raise
                return {"data": {"game": None}}
            return {"data": {"game": _game(loaded, plan.selections, language)}}
        if not isinstance(value, dict) or set(value) - {
            "gameId", "move", "expectedVersion", "idempotencyKey",
        }:  # fmt: skip
            return None
        game_id, move = _id(value.get("gameId")), value.get("move")
        expected, key = value.get("expectedVersion"), value.get("idempotencyKey")
        if game_id is None or move is None or not _optional(expected, int):
            return None
        if (expected is not None and expected not in INT32) or not _optional(key, str):
            return None
        try:
            result: Applied | Refused = await service.apply(game_id, caller, move, expected, key)
        except Refused as refused:
            if refused.code not in REJECT_CODES:
                raise
            result = refused
        return {"data": {"applyMove": _result(result, plan.selections, language)}}
    except Refused as refused:  # as errors.api_error and schema.TypedErrors give it
        code, message = public_code(refused), refused.message
        said = message_json(refusal_message(refused, code), language)
    path: list[str | int] = [plan.operation]
    extensions = {"code": code, "message": said}
    error = GraphQLError(message, [plan.root], path=path, extensions=extensions)
    data = None if plan.operation == "applyMove" else {"game": None}
    return {"data": data, "errors": [error.formatted]}


def _game(loaded: LoadedGame, selections: tuple[Selection, ...], language: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for s in selections:
        name = s.name
        if name == "__typename":
            out[s.key] = "Game"
        elif name == "id":
            out[s.key] = loaded.id
        elif name == "kind":
            out[s.key] = loaded.record.kind
        elif name == "version":
            out[s.key] = loaded.record.version
        elif name == "status":
            out[s.key] = loaded.status()
        elif name == "players":
            out[s.key] = loaded.record.players
        elif name == "spectatorDelay":
            out[s.key] = loaded.record.spectator_delay
        elif name == "toAct":
            out[s.key] = loaded.to_act
        elif name == "viewer":
            out[s.key] = loaded.viewer
        elif name == "state":
            out[s.key] = loaded.view()
        elif name == "legalMoves":
            out[s.key] = _legal_moves(loaded, s.children, language)
        elif name == "scores":
            out[s.key] = _scores(loaded, s.children, language)
    return out


def _legal_moves(
    loaded: LoadedGame, selections: tuple[Selection, ...], language: str
) -> list[dict[str, Any]]:
    if all(s.name in LEGAL_MOVE_COLUMNS for s in selections):
        columns = _columns(selections, LEGAL_MOVE_COLUMNS)
        rows = [("LegalMove", move, label) for move, label in loaded.legal_moves()]
        return [{key: row[i] for key, i in columns} for row in rows]
    catalog = loaded.game.texts
    answer = []
    for move, label, (key, values) in loaded.said_moves():  # each label worked out once
        said, row = catalog.say(key, **values), ("LegalMove", move, label)
        answer.append(
            {
                s.key: _message(said, s.children, language)
                if s.name == "labelMessage"
                else row[LEGAL_MOVE_COLUMNS[s.name]]
                for s in selections
            }
        )
    return answer


def _scores(loaded: LoadedGame, selections: tuple[Selection, ...], language: str) -> dict[str, Any]:
    scores = loaded.scores()
    values = {"final": scores.final, "winners": scores.winners}
    out: dict[str, Any] = {}
    for s in selections:
        if s.name == "entries":
            rows = [
                ("ScoreEntry", e.seat, e.points, e.breakdown, e.tiebreak, e.team, e.seat_points)
                for e in scores.entries
            ]
            if all(c.name in SCORE_ENTRY_COLUMNS for c in s.children):
                columns = _columns(s.children, SCORE_ENTRY_COLUMNS)
                out[s.key] = [{key: row[i] for key, i in columns} for row in rows]
            else:
                game = loaded.game
                out[s.key] = [
                    {
                        c.key: [
                            _message(said_detail(game, item.detail), c.children, language)
                            for item in row[3]
                        ]
                        if c.name == "detailMessages"
                        else row[SCORE_ENTRY_COLUMNS[c.name]]
                        for c in s.children
                    }
                    for row in rows
                ]
        else:
            out[s.key] = "Scores" if s.name == "__typename" else values[s.name]
    return out


def _message(said: Message, selections: tuple[Selection, ...], language: str) -> dict[str, Any]:
    """A `Message` as strawberry resolves it (graphql/texts.py): `text` in the request's
    language."""
    out: dict[str, Any] = {}
    for s in selections:
        if s.name == "__typename":
            out[s.key] = "Message"
        elif s.name == "id":
            out[s.key] = said.id
        elif s.name == "text":
            out[s.key] = message_json(said, language)["text"]  # rendered once, cached
        else:  # params
            out[s.key] = [
                {c.key: "MessageParam" if c.name == "__typename" else getattr(p, c.name)
                 for c in s.children}
                for p in said.params
            ]  # fmt: skip
    return out


# A list's objects are built from rows (tuples) by column: one small dict per object instead
# of a dict of every field first (the fast path's largest self time on reads).
LEGAL_MOVE_COLUMNS = {"__typename": 0, "move": 1, "label": 2}
SCORE_ENTRY_COLUMNS = {
    "__typename": 0, "seat": 1, "points": 2, "breakdown": 3, "tiebreak": 4, "team": 5,
    "seatPoints": 6,
}  # fmt: skip


def _columns(selections: tuple[Selection, ...], columns: dict[str, int]) -> list[tuple[str, int]]:
    return [(s.key, columns[s.name]) for s in selections]


def _result(result: Any, selections: tuple[Selection, ...], language: str) -> dict[str, Any]:
    typename = "MoveApplied" if isinstance(result, Applied) else "MoveRejected"
    out: dict[str, Any] = {}
    for s in selections:
        if s.name == "__typename":
            out[s.key] = typename
        elif s.on == typename:
            for child in s.children:
                out[child.key] = _member(result, typename, child, language)
    return out


def _member(result: Any, typename: str, s: Selection, language: str) -> Any:
    if s.name == "__typename":
        return typename
    if s.name == "game":
        return _game(result.game, s.children, language)
    if s.name == "localizedMessage":
        said = refusal_message(result, public_code(result))  # as operations._rejected says it
        return _message(said, s.children, language)
    return {
        "replayed": lambda: result.replayed,
        "code": lambda: result.code.value,
        "message": lambda: result.message,
        "currentVersion": lambda: result.current_version,
        "reason": lambda: result.reason,
        "rule": lambda: result.rule,
    }[s.name]()
