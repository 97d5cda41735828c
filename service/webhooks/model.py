"""Webhooks (docs/webhooks.md): what the API (endpoints) and the workers (delivery)
share: the event types, the stored records, and every Redis key.

A tenant's endpoints and deliveries live in one hash slot per tenant, `{wh-<tenant>}`, so each
delivery step is one atomic script on a cluster:

    wh:{wh-T}:endpoints       hash: endpoint id -> msgpack Endpoint
    wh:{wh-T}:failing         hash: endpoint id -> since when its deliveries give up (epoch s)
    wh:{wh-T}:m:<message>     string: an event's body as sent, kept RETENTION seconds
    wh:{wh-T}:q:<ep>:<game>   list: message ids for that endpoint and game, oldest first; the
                              head is the one being delivered (order per game)
    wh:{wh-T}:due:<ep>        sorted set: game id (or MANUAL) -> when the head of its queue is
                              tried next (epoch s); a worker claims it by pushing the score on
    wh:{wh-T}:tries:<ep>      hash: game id -> failed attempts of its queue's head
    wh:{wh-T}:retry:<ep>      sorted set: game id -> the earliest a drain may pull its retry
                              forward to; only games waiting for a retry (none in flight)
    wh:{wh-T}:drained:<ep>    hash: game id -> when its retry was due before a drain pulled it
                              forward (a drained attempt that fails keeps that time)
    wh:{wh-T}:log:<ep>        list: msgpack Attempt, newest first, LOG_LENGTH kept
    wh:{wh-T}:failed:<ep>     sorted set: message id -> when delivery gave up (redeliverable
                              while the message is kept)
    wh:{wh-T}:events          stream: {m: message id, t: type}, every event of the tenant in
                              the order it was fanned out, RETENTION kept (webhookEvents)
    wh:{wh-T}:w               string: a marker an endpoint change waits for behind it with
                              RULES_REPLICA_ACK (WAIT), 1 s

Events leave the game's commit through the game's slot, one outbox per tenant and lane:

    wh:{bots-n}:o:<tenant>    stream: {g: game id, v: version, e: JSON list of Event}, written
                              by the commit script, read by the workers (consumer group GROUP)
    wh:{bots-n}:on:<tenant>   string: exists while the tenant has an enabled endpoint; the
                              commit script appends to the outbox only then
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from typing import Any, Literal

import msgspec

EventType = Literal[
    "turn.started",
    "game.finished",
    "game.timeout",
    "game.resigned",
    "game.abandoned",
    "game.takeback",
    "match.found",
    "challenge.received",
]
EVENT_TYPES: tuple[EventType, ...] = (
    "turn.started",
    "game.finished",
    "game.timeout",
    "game.resigned",
    "game.abandoned",
    "game.takeback",
    "match.found",
    "challenge.received",
)
TEST_EVENT = "webhook.test"  # sendTestWebhookEvent's type: one endpoint, never subscribed to
ALL_TYPES = (*EVENT_TYPES, TEST_EVENT)  # every type a body may have (schemas, API enums)
# An attempt's outcome (Attempt.outcome) and an endpoint's health, as the API shows them.
OUTCOMES = ("DELIVERED", "RETRYING", "FAILED", "DROPPED")
ENDPOINT_STATUSES = ("HEALTHY", "FAILING", "DISABLED")
GROUP = "webhooks"  # the workers' consumer group on every outbox stream
MANUAL = "~manual"  # the queue of redeliveries asked for by the tenant (no game id has a ~)
RETENTION = 3 * 24 * 3600  # seconds a message is kept: the retries' day, then redelivery
TEST_RETENTION = 3600  # seconds a test event's message is kept (for its retries)
# the tests and retries a tenant may ask for: a bucket per endpoint and one per tenant, each
# refilled to this many a minute (tenant_events.TenantEvents.spend)
MANUAL_PER_ENDPOINT = 10
MANUAL_PER_TENANT = 60
LOG_LENGTH = 100  # attempts kept per endpoint
FAILED_LENGTH = 1000  # given-up messages listed per endpoint
MAX_ENDPOINTS = 16  # per tenant
DRAIN_BATCH = 256  # retrying games a successful delivery pulls forward (the next one, more)
EVENTS_PAGE = 100  # the most events one webhookEvents page lists
EVENTS_SCAN = 1000  # the most entries one page reads to find them (a `types` filter)


class Endpoint(msgspec.Struct, kw_only=True):
    """A tenant's receiver. `events` empty: every type. The secret is `whsec_` + base64 of 24
    random bytes (Standard Webhooks); after a rotation the previous one signs too until
    `previous_until` (epoch s), so a receiver can switch without losing events. Fields are
    only added, with defaults: an older record reads with them, an older release skips them."""

    id: str  # "ep_" + 16 URL-safe characters
    url: str
    events: list[str] = msgspec.field(default_factory=list)
    description: str = ""
    secret: str
    enabled: bool = True
    created: float
    updated: float
    previous_secret: str = ""
    previous_until: float = 0.0
    # a digest of the idempotency key of the rotation that made `secret` ("": none given); a
    # rotation retried with that key answers the endpoint as it is (EndpointStore.rotate)
    rotation_key: str = ""

    def wants(self, event_type: str) -> bool:
        return self.enabled and (not self.events or event_type in self.events)


class Attempt(msgspec.Struct, kw_only=True):
    """One line of an endpoint's delivery log."""

    at: float  # epoch s, when the attempt started
    message: str  # the event id (Webhook-Id)
    type: str
    game_id: str
    attempt: int  # 1 for the first try of that message at that endpoint
    # DELIVERED (2xx), RETRYING (tried again later), FAILED (retries used up: kept for
    # redelivery), DROPPED (the message expired before it could be sent, e.g. while the
    # endpoint was disabled)
    outcome: str
    status: int | None = None  # the HTTP status answered, None when none was
    latency_ms: float = 0.0
    error: str = ""  # "" or what went wrong, e.g. "timeout", "HTTP 500", "address not allowed"


class Event(msgspec.Struct, kw_only=True):
    """An event as the commit writes it to the outbox and as its body is sent (the Standard
    Webhooks payload: type, timestamp, data); data holds public information only (RULINGS
    ALL-4). Schemas: schema/webhooks/."""

    type: str
    timestamp: str  # ISO 8601, UTC, when the commit was made
    data: Any  # the type's payload Struct (service/webhooks/events.py); a dict once decoded


def timestamp(epoch: float) -> str:
    """An event's time as sent: ISO 8601, UTC, milliseconds."""
    stamp = datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")


endpoint_encoder = msgspec.msgpack.Encoder()
endpoint_decoder = msgspec.msgpack.Decoder(Endpoint)
attempt_decoder = msgspec.msgpack.Decoder(Attempt)

_SIMPLE = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def tenant_tag(tenant: str) -> str:
    """The hash tag of a tenant's webhook keys: its id, or a digest when the id has characters
    that could end a hash tag early."""
    if _SIMPLE.fullmatch(tenant):
        return f"wh-{tenant}"
    return f"wh-{hashlib.sha256(tenant.encode()).hexdigest()[:16]}"


def _base(tenant: str) -> str:
    return f"wh:{{{tenant_tag(tenant)}}}"


def endpoints_key(tenant: str) -> str:
    return f"{_base(tenant)}:endpoints"


def marker_key(tenant: str) -> str:
    """The short-lived marker an endpoint change waits for with RULES_REPLICA_ACK
    (RedisStore.script_acked): a replica that has it has every earlier write of the slot."""
    return f"{_base(tenant)}:w"


def failing_key(tenant: str) -> str:
    return f"{_base(tenant)}:failing"


def message_key(tenant: str, message: str) -> str:
    return f"{_base(tenant)}:m:{message}"


def queue_key(tenant: str, endpoint: str, game_id: str) -> str:
    return f"{_base(tenant)}:q:{endpoint}:{game_id}"


def due_key(tenant: str, endpoint: str) -> str:
    return f"{_base(tenant)}:due:{endpoint}"


def tries_key(tenant: str, endpoint: str) -> str:
    return f"{_base(tenant)}:tries:{endpoint}"


def retry_key(tenant: str, endpoint: str) -> str:
    return f"{_base(tenant)}:retry:{endpoint}"


def drained_key(tenant: str, endpoint: str) -> str:
    return f"{_base(tenant)}:drained:{endpoint}"


def manual_key(tenant: str, endpoint: str) -> str:
    """The bucket of an endpoint's tests and retries ("": the tenant's)."""
    return f"{_base(tenant)}:manual:{endpoint}"


def events_key(tenant: str) -> str:
    return f"{_base(tenant)}:events"


def log_key(tenant: str, endpoint: str) -> str:
    return f"{_base(tenant)}:log:{endpoint}"


def failed_key(tenant: str, endpoint: str) -> str:
    return f"{_base(tenant)}:failed:{endpoint}"


def message_id(game_id: str, version: int, event_type: str) -> str:
    """The Webhook-Id of an event: the same for every endpoint and every retry, and the same if
    a worker fans the outbox entry out twice (it died before acknowledging it)."""
    return f"msg_{game_id}.{version}.{event_type}"


def parse_message_id(message: str) -> tuple[str, int, str] | None:
    """(game id, version, event type) of a message id, None if it is not one of ours."""
    game_id, dot, rest = message.removeprefix("msg_").partition(".")
    version, dot2, event_type = rest.partition(".")
    if not (message.startswith("msg_") and dot and dot2 and version.isdigit()):
        return None
    return (game_id, int(version), event_type) if event_type in ALL_TYPES else None
