"""Every Prometheus metric the service exports, defined in this one place."""

from __future__ import annotations

import bisect
import functools
import itertools
import math
from typing import TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, disable_created_metrics
from prometheus_client.metrics import MetricWrapperBase
from prometheus_client.metrics_core import HistogramMetricFamily, Metric
from prometheus_client.utils import floatToGoString

disable_created_metrics()  # type: ignore[no-untyped-call]

REGISTRY = CollectorRegistry(auto_describe=True)

_FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class LoopHistogram:
    """A labelled histogram observed only by the event loop's thread: an observation is a
    bisect and two additions, where prometheus_client's Histogram takes two locks and walks
    its buckets in Python (with the in-flight gauge, 3% of a read's CPU). Scraped
    as any histogram: `_bucket{le=...}`, `_count`, `_sum`."""

    def __init__(
        self, name: str, documentation: str, labelnames: list[str], buckets: tuple[float, ...]
    ) -> None:
        self.name, self.documentation, self.labelnames = name, documentation, labelnames
        self.bounds = [*buckets, math.inf]
        self.children: dict[tuple[str, ...], Observations] = {}
        REGISTRY.register(self)

    def labels(self, *values: str) -> Observations:
        child = self.children.get(values)
        if child is None:
            child = self.children[values] = Observations(self.bounds)
        return child

    def describe(self) -> list[Metric]:
        return [HistogramMetricFamily(self.name, self.documentation, labels=self.labelnames)]

    def collect(self) -> list[Metric]:
        family = HistogramMetricFamily(self.name, self.documentation, labels=self.labelnames)
        for values, child in list(self.children.items()):
            counts = itertools.accumulate(child.counts)
            buckets = [(_le(b), n) for b, n in zip(self.bounds, counts, strict=True)]
            family.add_metric(list(values), buckets, child.sum)
        return [family]


def _le(bound: float) -> str:
    return str(floatToGoString(bound))  # type: ignore[no-untyped-call]


class Observations:
    def __init__(self, bounds: list[float]) -> None:
        self.bounds = bounds
        self.counts = [0] * len(bounds)
        self.sum = 0.0

    def observe(self, amount: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, amount)] += 1  # a bucket's bound is <=
        self.sum += amount


class Tally:
    """A count the event loop's code moves without a lock; its gauge reads it when scraped."""

    def __init__(self, name: str, documentation: str) -> None:
        self.value = 0
        Gauge(name, documentation, registry=REGISTRY).set_function(lambda: self.value)


REQUEST_SECONDS = LoopHistogram(
    "rules_request_seconds", "Time to answer one API request, by operation.", ["operation"], _FAST
)
IN_FLIGHT = Tally("rules_requests_in_flight", "HTTP requests being answered now.")
FOLLOWING = Tally(
    "rules_live_followers", "gameEvents subscriptions and event streams following a game now."
)
PARKED = Tally(
    "rules_live_parked",
    "gameEvents subscriptions on parked sockets written by their game's one follower (of "
    "rules_live_followers); the rest have a follower each.",
)
CROWDS = Tally(
    "rules_live_crowds", "Followers writing parked subscriptions: one per game and caller with any."
)
LIVE_RENDERS = Counter(
    "rules_live_renders_total",
    "Live frames rendered (gameEvents, REST's server-sent events): once per audience and "
    "version, however many sockets or streams get it.",
    registry=REGISTRY,
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
TOKENS_REISSUED = Counter(
    "rules_seat_tokens_reissued_total",
    "Seat tokens the games' tenants reissued (reissueSeatToken), the old ones ended.",
    registry=REGISTRY,
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
TAKEBACKS = Counter(
    "rules_takebacks_total",
    "Takebacks made: games gone back to an earlier version's state, by game.",
    ["game"],
    registry=REGISTRY,
)
VERSION_CONFLICTS = Counter(
    "rules_version_conflicts_total",
    "Moves refused because another write won the race for the same version.",
    ["game"],
    registry=REGISTRY,
)
STORE_SECONDS = LoopHistogram(
    "rules_store_seconds", "Time of one store round trip, by command.", ["command"], _FAST
)
STORE_ERRORS = Counter(
    "rules_store_errors_total",
    "Store calls that failed because Redis was unreachable or too slow.",
    ["command"],
    registry=REGISTRY,
)
REPLICA_ACK_MISSES = Counter(
    "rules_replica_ack_misses_total",
    "Writes the master made that fewer replicas than RULES_REPLICA_ACK confirmed in time "
    "(answered UNAVAILABLE), by command: create, commit, replicated (a replayed answer), "
    "reissue (a seat token), endpoint.create, endpoint.update, endpoint.rotate, "
    "endpoint.delete, endpoint.retry, endpoint.test, endpoint.flags (webhook endpoints).",
    ["command"],
    registry=REGISTRY,
)
UNREADABLE_RECORDS = Counter(
    "rules_unreadable_records_total",
    "Reads of a game's stored data that could not be decoded (damaged, or written by another "
    "release), by what was read: record, history, idempotency, endpoint.",
    ["what"],
    registry=REGISTRY,
)
NEWER_RELEASE = Counter(
    "rules_newer_release_total",
    "Writes refused (UPGRADE_IN_PROGRESS) because a newer release wrote the game (format) or "
    "created it under newer rules (rules), or, for a write that raced it, the commit script "
    "found a newer format (commit). Non-zero only during a rolling upgrade or a rollback.",
    ["what"],
    registry=REGISTRY,
)
RULES_CHANGED = Counter(
    "rules_rules_changed_total",
    "Writes refused (RULES_CHANGED) because the game was created under rules of its kind this "
    "release no longer plays, by game.",
    ["game"],
    registry=REGISTRY,
)
REPLAY_MISMATCHES = Counter(
    "rules_replay_mismatches_total",
    "Folded histories whose labels the engine replayed otherwise than they were played "
    "(served without labels), by game.",
    ["game"],
    registry=REGISTRY,
)
LEFT_FOR_NEWER = Counter(
    "rules_left_for_newer_release_total",
    "Bot jobs and due clocks a worker left for a worker of a newer release (the game's record "
    "or rules are newer than its own), by loop: job, clock.",
    ["loop"],
    registry=REGISTRY,
)
SET_ASIDE = Counter(
    "rules_set_aside_total",
    "Games a worker set aside (service/store/quarantine.py), by loop: job, clock, archive.",
    ["loop"],
    registry=REGISTRY,
)
ARCHIVED = Counter(
    "rules_archived_games_total",
    "Finished games the archive loop handled (service/worker/archiving.py), by outcome: "
    "archived, changed, gone, unavailable (left for a later poll), set_aside.",
    ["outcome"],
    registry=REGISTRY,
)
RATED_GAMES = Counter(
    "rules_rated_games_total",
    "Finished games the ratings handled (service/worker/rating.py), by outcome: rated, "
    "excluded (reason: ABANDONED, BOT_SEAT, NO_PLAYER_ID, SHARED_PLAYER_ID, NO_TENANT, "
    "TAKEBACKS), set_aside (reason: error).",
    ["outcome", "reason"],
    registry=REGISTRY,
)
ARCHIVE_LAG_SECONDS = Gauge(
    "rules_archive_lag_seconds",
    "How long the oldest finished game waiting for the archive has been due (0: none).",
    registry=REGISTRY,
)
RATING_LAG_SECONDS = Gauge(
    "rules_rating_lag_seconds",
    "How long the oldest finished game waiting for its rating has waited since it ended "
    "(service/worker/rating.py; 0: none).",
    registry=REGISTRY,
)
MATCHMAKING_RATINGS = Counter(
    "rules_matchmaking_ratings_total",
    "Seeks without a rating that matchmaking placed by the ratings (service/core/lobby), by "
    "outcome: rated (the player's mu), unrated (no rating yet: 25), unavailable (PostgreSQL "
    "did not answer in time: 25).",
    ["outcome"],
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
    "Bot jobs done by this worker, by outcome (played, stale: the game had moved on, "
    "set_aside: the game failed to decode or to play, left: for a newer release).",
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
