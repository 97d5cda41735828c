"""When a failed call is tried again, and how long the SDK waits first.

Retried: UNAVAILABLE, UPGRADE_IN_PROGRESS, HINTS_BUSY, HINT_TIMEOUT, RATE_LIMITED and a service
out of reach. A call that changes something is retried only when a retry cannot do it twice:
its idempotency key (made once per call, sent on every try: the service answers a repeat with
the first answer, `replayed`), or a refusal that proves nothing was done (RATE_LIMITED, an
upgrade in progress, a connection never made). The wait doubles from `initial_delay` up to
`max_delay`, with jitter, and is never shorter than the service's Retry-After.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .errors import RETRYABLE, ErrorCode, RulesError

# refused before anything was done: safe to repeat even without an idempotency key
NOTHING_DONE = frozenset({ErrorCode.RATE_LIMITED, ErrorCode.UPGRADE_IN_PROGRESS})


@dataclass(frozen=True)
class RetryPolicy:
    """`attempts` tries in all (1: no retry)."""

    attempts: int = 5
    initial_delay: float = 0.25
    max_delay: float = 8.0
    jitter: float = 0.2  # each wait is spread by up to this fraction, so clients do not align

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """Seconds before retry number `retry` (1 for the first)."""
        backoff = min(self.initial_delay * 2.0 ** (retry - 1), self.max_delay)
        backoff *= 1 + random.uniform(-self.jitter, self.jitter)
        return max(backoff, retry_after or 0.0)


NO_RETRY = RetryPolicy(attempts=1)


def retryable(error: RulesError, keyed: bool, never_sent: bool) -> bool:
    """Whether another try may cure `error`: `keyed` for a read or a change with an idempotency
    key, `never_sent` when the request cannot have reached the service."""
    if error.code not in RETRYABLE:
        return False
    return keyed or never_sent or error.code in NOTHING_DONE
