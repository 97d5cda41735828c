"""Typed GraphQL errors, shared by every resolver module (graphql.py, webhooks.py)."""

from __future__ import annotations

from graphql import GraphQLError


class ApiError(GraphQLError):
    """A typed GraphQL error: never masked, its code in `extensions.code`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, extensions={"code": code})


def unavailable() -> ApiError:
    return ApiError("UNAVAILABLE", "the game store is unavailable; retry shortly")
