"""Every Prometheus metric the service exports, defined in this one place."""

from __future__ import annotations

import functools
from typing import TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, disable_created_metrics
from prometheus_client.metrics import MetricWrapperBase

disable_created_metrics()  # type: ignore[no-untyped-call]

REGISTRY = CollectorRegistry(auto_describe=True)

_FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

REQUEST_SECONDS = Histogram(
    "rules_request_seconds",
    "Time to answer one API request, by operation.",
    ["operation"],
    buckets=_FAST,
    registry=REGISTRY,
)
REQUESTS_IN_FLIGHT = Gauge(
    "rules_requests_in_flight", "HTTP requests being answered now.", registry=REGISTRY
)
MOVES = Counter(
    "rules_moves_total",
    "Decisions submitted, by game and outcome (ACCEPTED or a reject code).",
    ["game", "outcome"],
    registry=REGISTRY,
)
GAMES_CREATED = Counter(
    "rules_games_created_total", "Games created, by game.", ["game"], registry=REGISTRY
)
GAMES_ENDED = Counter(
    "rules_games_ended_total",
    "Games ended without their rules: RESIGNED, ABANDONED, TIMEOUT, by game.",
    ["game", "reason"],
    registry=REGISTRY,
)
CLOCK_TIMEOUTS = Counter(
    "rules_clock_timeouts_total",
    "Turn-clock timeouts applied, by game and what the clock did (onTimeout).",
    ["game", "action"],
    registry=REGISTRY,
)
VERSION_CONFLICTS = Counter(
    "rules_version_conflicts_total",
    "Moves refused because another write won the race for the same version.",
    ["game"],
    registry=REGISTRY,
)
STORE_SECONDS = Histogram(
    "rules_store_seconds",
    "Time of one store round trip, by command.",
    ["command"],
    buckets=_FAST,
    registry=REGISTRY,
)
STORE_ERRORS = Counter(
    "rules_store_errors_total",
    "Store calls that failed because Redis was unreachable or too slow.",
    ["command"],
    registry=REGISTRY,
)
RATE_LIMITED = Counter(
    "rules_rate_limited_total",
    "Requests refused by a rate limit (per token or per client address).",
    registry=REGISTRY,
)
HINTS = Counter(
    "rules_hints_total",
    "Hints asked, by outcome (OK, HINTS_BUSY: refused as every hint process was busy, "
    "HINT_TIMEOUT: stopped past its time cap).",
    ["outcome"],
    registry=REGISTRY,
)
HINTS_IN_FLIGHT = Gauge(
    "rules_hints_in_flight", "Hints being thought about by this replica now.", registry=REGISTRY
)
BOT_JOBS_PENDING = Gauge(
    "rules_bot_jobs_pending",
    "Bot turns queued or being played, over every lane (the whole store, as a worker saw it).",
    registry=REGISTRY,
)
BOT_OLDEST_JOB_SECONDS = Gauge(
    "rules_bot_oldest_job_seconds",
    "Age of the oldest bot turn not yet done (the whole store, as a worker saw it).",
    registry=REGISTRY,
)
BOT_JOBS = Counter(
    "rules_bot_jobs_total",
    "Bot jobs done by this worker, by outcome (played, stale: the game had moved on).",
    ["outcome"],
    registry=REGISTRY,
)
BOT_DECISIONS = Counter(
    "rules_bot_decisions_total",
    "Bot decisions committed by this worker, by strategy (rate() = decisions per second).",
    ["strategy"],
    registry=REGISTRY,
)
BOT_JOB_SECONDS = Histogram(
    "rules_bot_job_seconds",
    "From a bot job's append to its decision committed, by strategy.",
    ["strategy"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
    registry=REGISTRY,
)
WEBHOOK_ATTEMPTS = Counter(
    "rules_webhook_attempts_total",
    "Webhook delivery attempts by this worker, by outcome (delivered, retrying, failed: retries "
    "used up, dropped: the message expired).",
    ["outcome"],
    registry=REGISTRY,
)
WEBHOOK_ATTEMPT_SECONDS = Histogram(
    "rules_webhook_attempt_seconds",
    "How long a webhook attempt took, from the address check to the endpoint's status line.",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
    registry=REGISTRY,
)
WEBHOOK_TRIES = Histogram(
    "rules_webhook_tries",
    "Attempts a webhook message took to one endpoint, counted when delivered or given up.",
    buckets=(1, 2, 3, 4, 5, 6, 7, 8, 10),
    registry=REGISTRY,
)
WEBHOOK_OUTBOX_PENDING = Gauge(
    "rules_webhook_outbox_pending",
    "Webhook outbox entries not yet fanned out to endpoints (the whole store, as a worker saw it).",
    registry=REGISTRY,
)
WEBHOOK_OUTBOX_OLDEST_SECONDS = Gauge(
    "rules_webhook_outbox_oldest_seconds",
    "Age of the oldest webhook outbox entry not yet fanned out (as a worker saw it).",
    registry=REGISTRY,
)
WEBHOOK_OVERDUE_SECONDS = Gauge(
    "rules_webhook_overdue_seconds",
    "How late the most overdue webhook attempt is (0: the workers keep up).",
    registry=REGISTRY,
)


M = TypeVar("M", bound=MetricWrapperBase)


@functools.cache
def child(metric: M, *values: str) -> M:
    """`metric.labels(*values)`, kept: labels() takes a lock and checks its values on every
    call, which shows on the hot path. Only for label values from a small fixed set."""
    return metric.labels(*values)
