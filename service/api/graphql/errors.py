"""GraphQL's one translation of the service's refusals (service/refusals.py): a typed error
with the code in `extensions.code`, or, for a refused decision, a `MoveRejected` value."""

from __future__ import annotations

from graphql import GraphQLError

from service.refusals import DECISIONS, Code, Refused

# The codes GraphQL names otherwise; every other code is its own name.
PUBLIC_CODES = {Code.BAD_INPUT: "BAD_USER_INPUT", Code.OUT_OF_RANGE: "BAD_USER_INPUT"}
# The refusals a mutation answers as a MoveRejected value rather than an error.
REJECT_CODES = frozenset(DECISIONS)


class ApiError(GraphQLError):
    """A typed GraphQL error: never masked, its code in `extensions.code`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, extensions={"code": code})


def public_code(refused: Refused) -> str:
    return PUBLIC_CODES.get(refused.code, refused.code.value)


def api_error(refused: Refused) -> ApiError:
    return ApiError(public_code(refused), refused.message)
