"""The GraphQL schema with its guards: the document cache and limits, masked unexpected errors,
no field suggestions, and no introspection in production."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import strawberry
from graphql import GraphQLError, GraphQLSyntaxError
from strawberry.extensions import DisableIntrospection, MaskErrors
from strawberry.schema.config import StrawberryConfig
from strawberry.types.execution import ExecutionResult
from strawberry.types.graphql import OperationType

from service.api.edge.localized import language, message_json
from service.api.graphql.documents import Documents
from service.api.graphql.operations import Mutation, Query, Subscription
from service.engine.texts import Message
from service.settings import Settings


def _should_mask(error: GraphQLError) -> bool:
    original = error.original_error
    return original is not None and not isinstance(original, GraphQLError)


def _code(error: GraphQLError) -> str:
    if _should_mask(error):
        return "INTERNAL_SERVER_ERROR"
    if isinstance(error, GraphQLSyntaxError) or error.message.startswith("Syntax Error"):
        return "GRAPHQL_PARSE_FAILED"
    return "GRAPHQL_VALIDATION_FAILED"  # the document or its variables do not fit the schema


MASK = MaskErrors(should_mask_error=_should_mask)


def typed_errors(errors: list[GraphQLError], speech: str) -> list[GraphQLError]:
    """Unexpected errors masked, and every error with an `extensions.code` (and what it says
    in `speech`, the caller's language), so a client can tell a bad document from a refusal
    from our fault."""
    typed = []
    for error in errors:
        code = (error.extensions or {}).get("code") or _code(error)
        if _should_mask(error):
            error = MASK.anonymise_error(error)
        error.extensions = {**(error.extensions or {}), "code": code}
        said = getattr(error, "said", None) or getattr(error.original_error, "said", None)
        if isinstance(said, Message):
            error.extensions["message"] = message_json(said, speech)
        typed.append(error)
    return typed


class TypedErrors(MaskErrors):
    """typed_errors on every answer."""

    def _process_errors(self, errors: list[GraphQLError]) -> list[GraphQLError]:
        return typed_errors(errors, self._language())

    def _language(self) -> str:
        context = self.execution_context.context
        request = context.get("request") if isinstance(context, dict) else None
        return language(request.headers.get("accept-language") if request is not None else None)


class Schema(strawberry.Schema):
    """Logs only unexpected errors: a client's bad query or refused request is its answer,
    not an incident (and logging every one would make floods expensive)."""

    documents: Documents

    def process_errors(
        self, errors: list[GraphQLError], execution_context: Any | None = None
    ) -> None:
        super().process_errors([e for e in errors if _should_mask(e)], execution_context)

    async def execute(  # strawberry's signature, arguments in its order
        self,
        query: str | None,
        variable_values: dict[str, Any] | None = None,
        context_value: Any | None = None,
        root_value: Any | None = None,
        operation_name: str | None = None,
        allowed_operation_types: Iterable[OperationType] | None = None,
        operation_extensions: dict[str, Any] | None = None,
    ) -> ExecutionResult:
        """An operation over HTTP (sockets stream theirs): never a subscription, which
        strawberry would run as a query and fail with a masked error and a logged traceback;
        the view refuses it with a typed 400 instead."""
        allowed = {OperationType.QUERY, OperationType.MUTATION}
        return await super().execute(
            query,
            variable_values,
            context_value,
            root_value,
            operation_name,
            allowed.intersection(allowed_operation_types or allowed),
            operation_extensions,
        )


def build_schema(settings: Settings | None = None) -> Schema:
    """The schema with its guards: parse and validation caches, limits on tokens, depth and
    aliases (introspection fields do not count towards depth), masked unexpected errors, no
    field suggestions, and no introspection in production."""
    settings = settings or Settings()
    documents = Documents(settings)
    extensions: list[Any] = [
        documents.extension,
        lambda: TypedErrors(should_mask_error=_should_mask),
    ]
    if settings.production:
        extensions.append(DisableIntrospection)
    schema = Schema(
        query=Query,
        mutation=Mutation,
        subscription=Subscription,
        extensions=extensions,
        config=StrawberryConfig(disable_field_suggestions=True),
    )
    documents.schema = schema._schema
    schema.documents = documents
    return schema
