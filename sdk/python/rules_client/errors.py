"""Every way the service (or the way to it) says no: one `RulesError` family.

`code` is an `ErrorCode`: the service's codes as GraphQL's `extensions.code` and a
`MoveRejected`'s `code` name them (docs/api.md; service/refusals.py, where BAD_INPUT and
OUT_OF_RANGE reach clients as BAD_USER_INPUT), and the codes of the transport around them. A
code this release does not know yet is `ErrorCode.UNKNOWN`, its text kept in `raw_code`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from ._generated import Message


class ErrorCode(StrEnum):
    # a decision refused (a MoveRejected; GraphQL's RejectCode)
    ILLEGAL_MOVE = "ILLEGAL_MOVE"
    MALFORMED_MOVE = "MALFORMED_MOVE"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    STALE_VERSION = "STALE_VERSION"
    GAME_OVER = "GAME_OVER"
    UNAUTHORIZED = "UNAUTHORIZED"
    NOT_FOUND = "NOT_FOUND"
    IDEMPOTENCY_KEY_REUSED = "IDEMPOTENCY_KEY_REUSED"
    TAKEBACK_NOT_ALLOWED = "TAKEBACK_NOT_ALLOWED"
    # any other refusal
    BAD_USER_INPUT = "BAD_USER_INPUT"
    UNAVAILABLE = "UNAVAILABLE"
    HINTS_BUSY = "HINTS_BUSY"
    HINT_TIMEOUT = "HINT_TIMEOUT"
    UNREADABLE_RECORD = "UNREADABLE_RECORD"
    UPGRADE_IN_PROGRESS = "UPGRADE_IN_PROGRESS"
    RULES_CHANGED = "RULES_CHANGED"
    FORBIDDEN = "FORBIDDEN"
    GAME_NOT_OVER = "GAME_NOT_OVER"
    RATE_LIMITED = "RATE_LIMITED"
    GAME_FULL = "GAME_FULL"  # a game waiting for players has every seat taken
    GAME_NOT_STARTED = "GAME_NOT_STARTED"  # a game still waiting for players
    ALREADY_QUEUED = "ALREADY_QUEUED"  # the player already waits for a match
    NOT_QUEUED = "NOT_QUEUED"  # the player waits for no match
    # the transport: a request or document that cannot run, a socket's limits
    BAD_REQUEST = "BAD_REQUEST"
    GRAPHQL_PARSE_FAILED = "GRAPHQL_PARSE_FAILED"
    GRAPHQL_VALIDATION_FAILED = "GRAPHQL_VALIDATION_FAILED"
    PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
    TOO_MANY_SUBSCRIPTIONS = "TOO_MANY_SUBSCRIPTIONS"
    TOO_MANY_SOCKETS = "TOO_MANY_SOCKETS"
    SLOW_CONSUMER = "SLOW_CONSUMER"
    INTERNAL_SERVER_ERROR = "INTERNAL_SERVER_ERROR"
    UNKNOWN = "UNKNOWN"  # a code newer than this SDK: see RulesError.raw_code


class RulesError(Exception):
    """A request the service did not carry out (or could not be asked).

    `retry_after` is the seconds the service asked to wait (RATE_LIMITED's Retry-After);
    `current_version`, `reason` and `rule` explain a refused decision (STALE_VERSION's version,
    ILLEGAL_MOVE's game reason and ruling); `said` is the message in the language asked for,
    when the service gave one."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        raw_code: str | None = None,
        retry_after: float | None = None,
        current_version: int | None = None,
        reason: str | None = None,
        rule: str | None = None,
        said: Message | None = None,
        extensions: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
        self.raw_code = raw_code or code.value
        self.retry_after = retry_after
        self.current_version = current_version
        self.reason = reason
        self.rule = rule
        self.said = said
        self.extensions = extensions or {}


class UnavailableError(RulesError):
    """The service cannot answer now (down, unreachable, its store away, an upgrade rolling, its
    hint processes busy): the SDK retried; try again later with the same idempotency key."""


class RateLimitedError(RulesError):
    """Too many requests, subscriptions or sockets: wait `retry_after` seconds."""


class UnauthorizedError(RulesError):
    """No, a wrong or a revoked credential: a seat's token or a tenant's API key."""


class ForbiddenError(RulesError):
    """A known caller asking for what it may not (another seat, a bot's seat)."""


class NotFoundError(RulesError):
    """No such game or webhook endpoint (or not this tenant's)."""


class BadInputError(RulesError):
    """What was sent cannot be used: arguments, options, a version past the game's."""


class RejectedError(RulesError):
    """The game refused it as it stands: an illegal or stale decision, a game over (or not over
    yet, or not started), a takeback its policy does not allow, retired rules, a full table, a
    matchmaking queue the player is (or is not) in."""


class ServerError(RulesError):
    """A fault on the service's side (an unreadable game, an unexpected error)."""


ERROR_CLASSES: dict[ErrorCode, type[RulesError]] = {
    ErrorCode.UNAVAILABLE: UnavailableError,
    ErrorCode.UPGRADE_IN_PROGRESS: UnavailableError,
    ErrorCode.HINTS_BUSY: UnavailableError,
    ErrorCode.HINT_TIMEOUT: UnavailableError,
    ErrorCode.RATE_LIMITED: RateLimitedError,
    ErrorCode.TOO_MANY_SUBSCRIPTIONS: RateLimitedError,
    ErrorCode.TOO_MANY_SOCKETS: RateLimitedError,
    ErrorCode.UNAUTHORIZED: UnauthorizedError,
    ErrorCode.FORBIDDEN: ForbiddenError,
    ErrorCode.NOT_FOUND: NotFoundError,
    ErrorCode.BAD_USER_INPUT: BadInputError,
    ErrorCode.BAD_REQUEST: BadInputError,
    ErrorCode.GRAPHQL_PARSE_FAILED: BadInputError,
    ErrorCode.GRAPHQL_VALIDATION_FAILED: BadInputError,
    ErrorCode.PAYLOAD_TOO_LARGE: BadInputError,
    ErrorCode.ILLEGAL_MOVE: RejectedError,
    ErrorCode.MALFORMED_MOVE: RejectedError,
    ErrorCode.NOT_YOUR_TURN: RejectedError,
    ErrorCode.STALE_VERSION: RejectedError,
    ErrorCode.GAME_OVER: RejectedError,
    ErrorCode.IDEMPOTENCY_KEY_REUSED: RejectedError,
    ErrorCode.TAKEBACK_NOT_ALLOWED: RejectedError,
    ErrorCode.RULES_CHANGED: RejectedError,
    ErrorCode.GAME_NOT_OVER: RejectedError,
    ErrorCode.GAME_FULL: RejectedError,
    ErrorCode.GAME_NOT_STARTED: RejectedError,
    ErrorCode.ALREADY_QUEUED: RejectedError,
    ErrorCode.NOT_QUEUED: RejectedError,
    ErrorCode.SLOW_CONSUMER: UnavailableError,
}
# what a retry may cure: the service said so (or said nothing, being out of reach)
RETRYABLE = frozenset(
    {
        ErrorCode.UNAVAILABLE,
        ErrorCode.UPGRADE_IN_PROGRESS,
        ErrorCode.HINTS_BUSY,
        ErrorCode.HINT_TIMEOUT,
        ErrorCode.RATE_LIMITED,
    }
)


def error(
    raw_code: str | None,
    message: str,
    *,
    retry_after: float | None = None,
    current_version: int | None = None,
    reason: str | None = None,
    rule: str | None = None,
    said: Message | None = None,
    extensions: dict[str, Any] | None = None,
) -> RulesError:
    """The typed error for a code as the service wrote it."""
    try:
        code = ErrorCode(raw_code or "")
    except ValueError:
        code = ErrorCode.UNKNOWN
    return ERROR_CLASSES.get(code, ServerError)(
        code,
        message,
        raw_code=raw_code,
        retry_after=retry_after,
        current_version=current_version,
        reason=reason,
        rule=rule,
        said=said,
        extensions=extensions,
    )
