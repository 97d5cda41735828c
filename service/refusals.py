"""The one way the service refuses a request: `Refused`, with a code from `Code`.

The game service raises it for every request it will not carry out, and so do the parts
below it that a request can reach (the store when Redis is away, the hint pool when it is
full, the webhook endpoints for an unusable URL), so each adapter translates one exception
with one table (service/api/graphql/errors.py, service/api/edge/problems.py). A message is
written once, where the refusal is raised, and says what to do instead. Nothing here
imports the rest of the service, and the engine raises its `IllegalMove` with these codes
too (docs/architecture.md).
"""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    # a decision refused (DECISIONS below: GraphQL's RejectCode, a MoveRejected's code)
    ILLEGAL_MOVE = "ILLEGAL_MOVE"
    MALFORMED_MOVE = "MALFORMED_MOVE"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    STALE_VERSION = "STALE_VERSION"
    GAME_OVER = "GAME_OVER"
    UNAUTHORIZED = "UNAUTHORIZED"
    NOT_FOUND = "NOT_FOUND"
    IDEMPOTENCY_KEY_REUSED = "IDEMPOTENCY_KEY_REUSED"
    # a takeback the game's policy does not allow now (service/core/takebacks/policy.py): takebacks
    # off, nothing of the seat's to take back, one that needs consent under OWN_DECISIONS, no
    # request to answer
    TAKEBACK_NOT_ALLOWED = "TAKEBACK_NOT_ALLOWED"
    # anything else refused
    BAD_INPUT = "BAD_INPUT"  # what was given cannot be used: create options, an endpoint's URL
    OUT_OF_RANGE = "OUT_OF_RANGE"  # a read's argument: a past version, a listing's page
    UNAVAILABLE = "UNAVAILABLE"  # Redis away: retry shortly (with the same idempotency key)
    HINTS_BUSY = "HINTS_BUSY"  # every hint process is busy: retry shortly
    HINT_TIMEOUT = "HINT_TIMEOUT"  # the hint ran out of time and was stopped: retry
    UNREADABLE_RECORD = "UNREADABLE_RECORD"  # a game's stored data cannot be read: a server fault
    # the game was written by a newer release, or is played under newer rules, than this
    # replica's: retry shortly, a replica of that release takes it (a rolling upgrade)
    UPGRADE_IN_PROGRESS = "UPGRADE_IN_PROGRESS"
    # the game was created under rules of its kind this release no longer plays: it can be read
    # and abandoned, not played on (docs/reliability.md, "Rolling upgrades")
    RULES_CHANGED = "RULES_CHANGED"
    FORBIDDEN = "FORBIDDEN"  # a known caller asking for what it may not: another seat, a bot's
    # what only a game that is over may give (its record: the seed tells every hidden card)
    GAME_NOT_OVER = "GAME_NOT_OVER"
    # more of something bounded than its budget allows now (a tenant's webhook tests and
    # retries): retry after `Refused.retry_after` seconds
    RATE_LIMITED = "RATE_LIMITED"
    # players (service/core/players): no open seat left for the joining player; a decision in
    # a game still waiting for players
    GAME_FULL = "GAME_FULL"
    GAME_NOT_STARTED = "GAME_NOT_STARTED"
    # matchmaking (service/core/lobby): the player already waits in another pool of the
    # tenant; the player waits in none (leaving, or matched already)
    ALREADY_QUEUED = "ALREADY_QUEUED"
    NOT_QUEUED = "NOT_QUEUED"


DECISIONS = (
    Code.ILLEGAL_MOVE,
    Code.MALFORMED_MOVE,
    Code.NOT_YOUR_TURN,
    Code.STALE_VERSION,
    Code.GAME_OVER,
    Code.UNAUTHORIZED,
    Code.NOT_FOUND,
    Code.IDEMPOTENCY_KEY_REUSED,
    Code.TAKEBACK_NOT_ALLOWED,
)


class Refused(Exception):
    """A request not carried out; nothing was changed. `current_version` is the game's
    version when the refusal depends on it; `reason` and `rule` explain an ILLEGAL_MOVE
    (service/engine/explain.py)."""

    def __init__(
        self,
        code: Code,
        message: str,
        current_version: int | None = None,
        reason: str | None = None,
        rule: str | None = None,
        localized: object | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.current_version = current_version
        self.reason = reason
        self.rule = rule
        # `message` as a catalog's message (service.engine.texts.Message), when the engine said
        # it; else the adapters give the code's own sentence
        self.localized = localized
        self.retry_after = retry_after  # RATE_LIMITED: seconds until it may be asked again
