"""GraphQL's one translation of the service's refusals (service/refusals.py): a typed error
with the code in `extensions.code`, or, for a refused decision, a `MoveRejected` value."""

from __future__ import annotations

import math

from graphql import GraphQLError

from service.api.edge.localized import refusal_message
from service.engine.texts import Message
from service.refusals import DECISIONS, Code, Refused

# The codes GraphQL names otherwise; every other code is its own name.
PUBLIC_CODES = {Code.BAD_INPUT: "BAD_USER_INPUT", Code.OUT_OF_RANGE: "BAD_USER_INPUT"}
# The refusals a mutation answers as a MoveRejected value rather than an error.
REJECT_CODES = frozenset(DECISIONS)


class ApiError(GraphQLError):
    """A typed GraphQL error: never masked, its code in `extensions.code`, and what it says
    as a catalog's message (`said`: `extensions.message`, in the request's language, added
    by TypedErrors, service/api/graphql/schema.py)."""

    def __init__(
        self,
        code: str,
        message: str,
        said: Message | None = None,
        retry_after: float | None = None,
    ) -> None:
        extensions: dict[str, object] = {"code": code}
        if retry_after is not None:  # RATE_LIMITED: whole seconds, as Retry-After says them
            extensions["retryAfter"] = max(math.ceil(retry_after), 1)
        super().__init__(message, extensions=extensions)
        self.said = said


def public_code(refused: Refused) -> str:
    return PUBLIC_CODES.get(refused.code, refused.code.value)


def api_error(refused: Refused) -> ApiError:
    code = public_code(refused)
    return ApiError(code, refused.message, refusal_message(refused, code), refused.retry_after)
