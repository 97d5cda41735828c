"""The Python SDK covers the whole public API, in names of its own.

Every root field of schema/schema.graphql (Query, Mutation, Subscription) has methods on both
clients (`rules_client.OPERATIONS` says which) and an operation in sdk/python/operations.graphql;
every code the service can answer is an `ErrorCode`; the package names the schema it was made
from; and the methods answer only types the package exports under their short names.
"""

from __future__ import annotations

import hashlib
import inspect
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from graphql import OperationDefinitionNode, build_schema, parse

from service.api.contracts import SCHEMA_DIR
from service.api.graphql.errors import PUBLIC_CODES
from service.refusals import Code

SDK = Path(__file__).parents[2] / "sdk" / "python"
# Root fields that are not for SDK users: none today. Add one only with the reason beside it.
NOT_FOR_SDK_USERS: frozenset[str] = frozenset()
# Codes the GraphQL transport itself answers (service/api/graphql/schema.py, app.py,
# sockets.py; service/api/edge/guard.py): a document that cannot run, a request or socket over
# a limit, our own fault masked.
TRANSPORT_CODES = {
    "GRAPHQL_PARSE_FAILED",
    "GRAPHQL_VALIDATION_FAILED",
    "INTERNAL_SERVER_ERROR",
    "BAD_REQUEST",
    "PAYLOAD_TOO_LARGE",
    "TOO_MANY_SUBSCRIPTIONS",
    "TOO_MANY_SOCKETS",
    "SLOW_CONSUMER",
}


@pytest.fixture(scope="module")
def rules() -> Iterator[ModuleType]:
    sys.path.insert(0, str(SDK))
    try:
        import rules_client

        yield rules_client
    finally:
        sys.path.remove(str(SDK))


def root_fields() -> set[str]:
    schema = build_schema((SCHEMA_DIR / "schema.graphql").read_text())
    roots = [schema.query_type, schema.mutation_type, schema.subscription_type]
    return {name for root in roots if root is not None for name in root.fields}


def public_methods(cls: type) -> dict[str, typing.Any]:
    return {
        name: member
        for name, member in vars(cls).items()
        if callable(member) and not name.startswith("_")
    }


def test_every_root_field_of_the_schema_has_a_method_on_both_clients(rules: ModuleType) -> None:
    fields = root_fields() - NOT_FOR_SDK_USERS
    assert fields, "the schema has root fields"
    missing = sorted(fields - set(rules.OPERATIONS))
    assert not missing, f"root fields without an SDK method (rules_client.OPERATIONS): {missing}"
    gone = sorted(set(rules.OPERATIONS) - root_fields())
    assert not gone, f"OPERATIONS names fields the schema no longer has: {gone}"
    for client in (rules.AsyncRules, rules.Rules):
        methods = public_methods(client)
        for field, names in rules.OPERATIONS.items():
            for name in names:
                assert name in methods, f"{client.__name__}.{name} ({field}) is missing"
                assert inspect.getdoc(methods[name]), f"{client.__name__}.{name} has no docstring"


def test_the_operations_select_every_root_field() -> None:
    document = parse((SDK / "operations.graphql").read_text())
    selected = {
        selection.name.value
        for definition in document.definitions
        if isinstance(definition, OperationDefinitionNode)
        for selection in definition.selection_set.selections
        if hasattr(selection, "name")
    }
    assert root_fields() - NOT_FOR_SDK_USERS <= selected, root_fields() - selected


def test_both_clients_take_the_same_arguments(rules: ModuleType) -> None:
    asynchronous = public_methods(rules.AsyncRules)
    blocking = public_methods(rules.Rules)
    assert set(asynchronous) - {"aclose"} == set(blocking) - {"close"}
    for name, method in asynchronous.items():
        if name in blocking:
            mine, theirs = inspect.signature(method), inspect.signature(blocking[name])
            assert list(mine.parameters) == list(theirs.parameters), name


def test_the_answers_are_types_the_package_exports_by_short_names(rules: ModuleType) -> None:
    """No generated name (`ApplyMoveApplyMoveMoveApplied`) in a method's answer."""
    exported = [getattr(rules, name) for name in rules.__all__]
    for name, method in public_methods(rules.AsyncRules).items():
        answer = typing.get_type_hints(method, vars(sys.modules[method.__module__]))["return"]
        for named in _classes(answer):
            if named.__module__.startswith("rules_client"):
                assert named in exported or named is rules.AsyncRules, (name, named)
                assert len(named.__name__) <= 26, (name, named.__name__)


def _classes(hint: object) -> Iterator[type]:
    if isinstance(hint, type) and not typing.get_args(hint):
        yield hint
    for argument in typing.get_args(hint):
        yield from _classes(argument)


def test_every_code_the_service_answers_is_an_error_code(rules: ModuleType) -> None:
    """A code the service gains (service/refusals.py) fails here until ErrorCode lists it."""
    public = {PUBLIC_CODES.get(code, code.value) for code in Code}
    schema = build_schema((SCHEMA_DIR / "schema.graphql").read_text())
    reject_codes = set(schema.type_map["RejectCode"].values)  # type: ignore[attr-defined]
    known = {code.value for code in rules.ErrorCode}
    missing = sorted((public | reject_codes | TRANSPORT_CODES) - known)
    assert not missing, f"ErrorCode lacks {missing} (sdk/python/rules_client/errors.py)"
    error = rules.errors.error("SOMETHING_NEW", "a code of a newer service")
    assert error.code is rules.ErrorCode.UNKNOWN and error.raw_code == "SOMETHING_NEW"


def test_the_package_names_the_schema_it_was_made_from(rules: ModuleType) -> None:
    digest = hashlib.sha256((SCHEMA_DIR / "schema.graphql").read_bytes()).hexdigest()
    assert digest == rules.SCHEMA_SHA256, "run `make sdk` and commit sdk/python/rules_client"
    assert rules.__version__.endswith(f"+schema.{digest[:12]}"), rules.__version__


def test_every_input_type_and_enum_of_the_schema_is_in_rules_client_types(
    rules: ModuleType,
) -> None:
    import rules_client.types

    schema = build_schema((SCHEMA_DIR / "schema.graphql").read_text())
    wanted = {
        name
        for name, kind in schema.type_map.items()
        if not name.startswith("__")
        and type(kind).__name__ in {"GraphQLInputObjectType", "GraphQLEnumType"}
    }
    missing = sorted(wanted - set(rules_client.types.__all__))
    assert not missing, f"rules_client/types.py lacks {missing} (after `make sdk`)"
