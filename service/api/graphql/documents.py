"""One schema extension that parses and validates each distinct GraphQL document once.

strawberry's ParserCache and ValidationCache key their caches on the parsed document and on
the tuple of validation rules; a limit extension built per request makes new rule classes each
time, so the validation cache never hit (docs/performance.md). Here both caches are keyed on the
query text, the rules are built once per schema, and the root field names that label the
latency metric are computed once per document too.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Any

from graphql import (
    ASTValidationRule,
    DocumentNode,
    GraphQLError,
    GraphQLSchema,
    OperationDefinitionNode,
    OperationType,
    get_operation_ast,
    parse,
    specified_rules,
)
from strawberry.extensions import MaxAliasesLimiter, QueryDepthLimiter, SchemaExtension
from strawberry.schema.schema import validate_document

from service.api.graphql.fastpath import Plan, compile_plan
from service.settings import Settings

_TOKEN = re.compile(
    r'"""(?:\\"""|[^"]|"(?!""))*"""|"(?:\\.|[^"\\\n])*"|#[^\n]*|\.\.\.'
    r"|[A-Za-z_][A-Za-z0-9_]*|-?[0-9][0-9.eE+-]*|[!$&()\[\]{}:=@|]"
)


PARSE_FAILED = {"code": "GRAPHQL_PARSE_FAILED"}
MAX_NUMBER = 40  # characters of one number literal; Int is 32-bit, Float a double


class Lru(OrderedDict[Hashable, Any]):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key: Hashable, value: Any) -> Any:
        self[key] = value
        if len(self) > self.size:
            self.popitem(last=False)
        return value


class Documents:
    """The caches of one schema: parsed documents and validation errors, by query text."""

    def __init__(self, settings: Settings, size: int = 1024) -> None:
        self.max_tokens = settings.max_query_tokens
        self.limits: list[type[ASTValidationRule]] = [
            *QueryDepthLimiter(
                max_depth=settings.max_query_depth,
                should_ignore=lambda ignore: ignore.field_name.startswith("__"),
            ).validation_rules,
            *MaxAliasesLimiter(max_alias_count=settings.max_query_aliases).validation_rules,
        ]
        self.parsed: Lru = Lru(size)
        self.errors: Lru = Lru(size)
        self.plans: Lru = Lru(size)
        self.schema: GraphQLSchema | None = None  # set once the schema is built

    def plan(self, query: str) -> Plan | None:
        """The fast path's plan for a valid document it understands (see fastpath.py)."""
        found: Plan | bool | None = self.plans.get(query, False)
        if found is False:
            found = None
            parsed = self.parsed.get(query) or self.parsed.put(query, self.parse(query))
            if not isinstance(parsed, GraphQLError) and self.schema is not None:
                rules = (*specified_rules, *self.limits)
                if not validate_document(self.schema, parsed[0], rules):
                    found = compile_plan(parsed[0])
            self.plans.put(query, found)
        return found if isinstance(found, Plan) else None

    def operation(self, query: str, name: object) -> OperationType | None:
        """The type of the operation a request names (None: the document does not parse, or
        names no such operation; strawberry then says so)."""
        parsed = self.parsed.get(query) or self.parsed.put(query, self.parse(query))
        if isinstance(parsed, GraphQLError):
            return None
        found = get_operation_ast(parsed[0], name if isinstance(name, str) else None)
        return None if found is None else found.operation

    def roots(self, query: str) -> str | None:
        """The root field names of a document, comma-separated and sorted (None: it does not
        parse)."""
        parsed = self.parsed.get(query) or self.parsed.put(query, self.parse(query))
        return None if isinstance(parsed, GraphQLError) else parsed[1]

    def parse(self, query: str) -> tuple[DocumentNode, str] | GraphQLError:
        """graphql-core's parser costs ~12 us a token, so a cheap C-regex count refuses
        over-long documents before it runs."""
        tokens = [token for token in _TOKEN.findall(query) if token[0] != "#"]
        if len(tokens) > self.max_tokens:
            return GraphQLError(
                f"Syntax Error: Document contains more than {self.max_tokens} tokens."
                " Parsing aborted.",
                extensions=PARSE_FAILED,
            )
        # graphql-core converts number literals with int(), which refuses over 4,300 digits
        if any(len(token) > MAX_NUMBER and token[0] in "-0123456789" for token in tokens):
            message = f"Syntax Error: a number literal over {MAX_NUMBER} characters."
            return GraphQLError(message, extensions=PARSE_FAILED)
        try:
            document = parse(query, max_tokens=self.max_tokens)
        except GraphQLError as error:
            error.extensions = PARSE_FAILED
            return error
        return document, _root_fields(document)

    def extension(self) -> SchemaExtension:
        return DocumentCache(self)


class DocumentCache(SchemaExtension):
    def __init__(self, documents: Documents) -> None:
        self.documents = documents

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        query = context.query or ""
        found = self.documents.parsed.get(query)
        if found is None:
            found = self.documents.parsed.put(query, self.documents.parse(query))
        if isinstance(found, GraphQLError):
            raise found
        context.graphql_document = found[0]
        yield

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        query = context.query or ""
        errors: list[GraphQLError] | None = self.documents.errors.get(query)
        if errors is None:
            assert context.graphql_document is not None
            rules = (*context.validation_rules, *self.documents.limits)
            errors = validate_document(context.schema._schema, context.graphql_document, rules)
            for error in errors:
                error.extensions = {**(error.extensions or {}), "code": "GRAPHQL_VALIDATION_FAILED"}
            self.documents.errors.put(query, errors)
        context.pre_execution_errors = errors
        yield

    def on_execute(self) -> Iterator[None]:
        context = self.execution_context
        found = self.documents.parsed.get(context.query or "")
        request = context.context.get("request") if isinstance(context.context, dict) else None
        if found is not None and found[1] and request is not None:
            request.scope["rules.operation"] = found[1]
        yield


def _root_fields(document: DocumentNode) -> str:
    """The root field names of a document ("applyMove", "game"...): a bounded label set."""
    return ",".join(
        sorted(
            selection.name.value
            for definition in document.definitions
            if isinstance(definition, OperationDefinitionNode)
            for selection in definition.selection_set.selections
            if hasattr(selection, "name")
        )
    )
