"""GraphQL for a tenant's webhook endpoints (docs/webhooks.md): the types, and the
queries and mutations that graphql.py's Query and Mutation inherit.

Every operation acts for the caller's tenant (X-API-Key); another tenant's endpoint is
NOT_FOUND, exactly like one that never was. A secret is shown once, in the answer of the
mutation that made it (create, rotate), and never read back.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias, cast

import msgspec
import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from service.api.graphql.errors import ApiError, api_error
from service.api.graphql.types import PageInfo, context_api_key, context_service, vocabulary
from service.core.moves.opening import MAX_IDEMPOTENCY_KEY
from service.refusals import Refused
from service.webhooks.endpoints import EndpointStore
from service.webhooks.model import (
    ALL_TYPES,
    ENDPOINT_STATUSES,
    EVENT_TYPES,
    EVENTS_PAGE,
    FAILED_LENGTH,
    LOG_LENGTH,
    OUTCOMES,
    TEST_EVENT,
    Attempt,
    Endpoint,
    parse_message_id,
)
from service.webhooks.tenant_events import ListedEvent, TenantEvents

ROTATION_KEY = (
    f"Names this rotation (1 to {MAX_IDEMPOTENCY_KEY} characters): retried with the same key "
    "(after UNAVAILABLE or a lost answer) it rotates nothing while the secret is the one that "
    "rotation made, and answers that secret."
)


def _event_name(event_type: str) -> str:
    return event_type.upper().replace(".", "_")


if TYPE_CHECKING:  # made from their sources at import: opaque to mypy
    WebhookEventType: TypeAlias = Any
    WebhookEndpointStatus: TypeAlias = Any
    WebhookDeliveryOutcome: TypeAlias = Any
else:
    WebhookEventType = vocabulary(
        "WebhookEventType",
        ALL_TYPES,
        "What an endpoint is told about, as the event's `type` names it: "
        + ", ".join(f"{_event_name(t)} `{t}`" for t in EVENT_TYPES)
        + f" (docs/webhooks.md); {_event_name(TEST_EVENT)} `{TEST_EVENT}` is sent by "
        "sendTestWebhookEvent only and cannot be subscribed to.",
        _event_name,
    )
    WebhookEndpointStatus = vocabulary(
        "WebhookEndpointStatus",
        ENDPOINT_STATUSES,
        "DISABLED: switched off by the tenant; FAILING: an attempt failed and an event is "
        "still retrying, or one was given up after a day of retries (see failedEvents), and "
        "no delivery succeeded since; HEALTHY otherwise.",
    )
    WebhookDeliveryOutcome = vocabulary(
        "WebhookDeliveryOutcome",
        OUTCOMES,
        "DELIVERED: answered 2xx; RETRYING: tried again later; FAILED: retries used up, kept "
        "for redeliverWebhookEvent; DROPPED: the event expired (3 days) before it could be sent.",
    )


@strawberry.type(description="One attempt to deliver an event to an endpoint.")
class WebhookDelivery:
    at: datetime = strawberry.field(description="When the attempt started.")
    event_id: strawberry.ID = strawberry.field(description="The event's Webhook-Id.")
    event_type: WebhookEventType
    game_id: strawberry.ID
    attempt: int = strawberry.field(description="1 for the event's first try at this endpoint.")
    outcome: WebhookDeliveryOutcome
    http_status: int | None = strawberry.field(description="The status answered; null: none.")
    latency_ms: float
    error: str | None = strawberry.field(description='What went wrong, e.g. "timeout".')


@strawberry.type(description="An event whose delivery was given up; redeliverable while kept.")
class WebhookFailedEvent:
    event_id: strawberry.ID
    event_type: WebhookEventType | None
    game_id: strawberry.ID | None
    failed_at: datetime = strawberry.field(description="When its delivery was given up.")


@strawberry.type(description="A receiver of the tenant's events. Its secret is never shown here.")
class WebhookEndpoint:
    endpoint: strawberry.Private[Endpoint]
    tenant: strawberry.Private[str]
    since: strawberry.Private[float | None]

    @strawberry.field
    def id(self) -> strawberry.ID:
        return strawberry.ID(self.endpoint.id)

    @strawberry.field
    def url(self) -> str:
        return self.endpoint.url

    @strawberry.field
    def description(self) -> str:
        return self.endpoint.description

    @strawberry.field(description="The event types it receives; empty: every type.")
    def events(self) -> list[WebhookEventType]:
        return [WebhookEventType(e) for e in self.endpoint.events]

    @strawberry.field
    def enabled(self) -> bool:
        return self.endpoint.enabled

    @strawberry.field
    def status(self) -> WebhookEndpointStatus:
        if not self.endpoint.enabled:
            return WebhookEndpointStatus.DISABLED
        if self.since is not None:
            return WebhookEndpointStatus.FAILING
        return WebhookEndpointStatus.HEALTHY

    @strawberry.field(name="failingSince", description="When its deliveries began to give up.")
    def failing_since(self) -> datetime | None:
        return None if self.since is None else _time(self.since)

    @strawberry.field(name="createdAt")
    def created_at(self) -> datetime:
        return _time(self.endpoint.created)

    @strawberry.field(name="updatedAt")
    def updated_at(self) -> datetime:
        return _time(self.endpoint.updated)

    @strawberry.field(description=f"The last delivery attempts, newest first (`last` 1 to "
                      f"{LOG_LENGTH}).")  # fmt: skip
    async def deliveries(self, info: Info[Any, Any], last: int = 20) -> list[WebhookDelivery]:
        _bounded("last", last, LOG_LENGTH)
        try:
            attempts = await _tenant_events(info).log(self.tenant, self.endpoint.id, last)
        except Refused as refused:
            raise api_error(refused) from None
        return [_delivery(a) for a in attempts]

    @strawberry.field(
        name="failedEvents",
        description=f"Events given up, newest first (`last` 1 to {FAILED_LENGTH}).",
    )
    async def failed_events(self, info: Info[Any, Any], last: int = 20) -> list[WebhookFailedEvent]:
        _bounded("last", last, FAILED_LENGTH)
        try:
            failed = await _tenant_events(info).failed(self.tenant, self.endpoint.id, last)
        except Refused as refused:
            raise api_error(refused) from None
        return [_failed_event(message, when) for message, when in failed]


@strawberry.type(description="An event of the tenant, as webhookEvents lists it.")
class WebhookEvent:
    listed: strawberry.Private[ListedEvent]
    body: strawberry.Private[dict[str, Any]]

    @strawberry.field(description="The event's Webhook-Id (the same for every endpoint).")
    def id(self) -> strawberry.ID:
        return strawberry.ID(self.listed.message)

    @strawberry.field
    def type(self) -> WebhookEventType:
        return WebhookEventType(self.body.get("type"))

    @strawberry.field(name="gameId")
    def game_id(self) -> strawberry.ID | None:
        parsed = parse_message_id(self.listed.message)
        return None if parsed is None else strawberry.ID(parsed[0])

    @strawberry.field(name="createdAt", description="The event's `timestamp`.")
    def created_at(self) -> datetime:
        return datetime.fromisoformat(str(self.body.get("timestamp")))

    @strawberry.field(description="The body as POSTed: `{type, timestamp, data}`.")
    def payload(self) -> JSON:
        return cast(JSON, self.body)


@strawberry.type
class WebhookEventEdge:
    cursor: str
    node: WebhookEvent


@strawberry.type
class WebhookEventConnection:
    edges: list[WebhookEventEdge]
    page_info: PageInfo


@strawberry.type
class WebhookEndpointWithSecret:
    endpoint: WebhookEndpoint
    secret: str = strawberry.field(
        description="The signing secret (whsec_...): shown in this answer only. After a "
        "rotation the previous secret still signs for 24 hours."
    )


@strawberry.type
class WebhookQueries:
    @strawberry.field(
        name="webhookEndpoints",
        description="The tenant's (X-API-Key) webhook endpoints, oldest first.",
    )
    async def webhook_endpoints(self, info: Info[Any, Any]) -> list[WebhookEndpoint]:
        tenant, store = _caller(info), _endpoints(info)
        try:
            found = await store.list(tenant)
            failing = await store.failing(tenant) if found else {}
        except Refused as refused:
            raise api_error(refused) from None
        return [WebhookEndpoint(endpoint=e, tenant=tenant, since=failing.get(e.id)) for e in found]

    @strawberry.field(
        name="webhookEndpoint",
        description="One of the tenant's endpoints; NOT_FOUND for an unknown id.",
    )
    async def webhook_endpoint(
        self, info: Info[Any, Any], id: strawberry.ID
    ) -> WebhookEndpoint | None:
        tenant = _caller(info)
        try:
            return await _found(info, tenant, await _endpoints(info).get(tenant, str(id)), id)
        except Refused as refused:
            raise api_error(refused) from None

    @strawberry.field(
        name="webhookEvents",
        description="The tenant's events (those made while it had an enabled endpoint, kept "
        "3 days), oldest first, to catch up by cursor: pass the last `endCursor` as `after`. "
        f"`first` 1 to {EVENTS_PAGE}; `types` null or empty: every type. A page reads a "
        "bounded number of events, so with `types` it may hold fewer than `first` while "
        "`hasNextPage` is true.",
    )
    async def webhook_events(
        self,
        info: Info[Any, Any],
        after: str | None = None,
        types: list[WebhookEventType] | None = None,
        first: int = 20,
    ) -> WebhookEventConnection:
        tenant = _caller(info)
        _bounded("first", first, EVENTS_PAGE)
        try:
            page = await _tenant_events(info).events(tenant, after, _types(types), first)
        except Refused as refused:
            raise api_error(refused) from None
        edges = [
            WebhookEventEdge(cursor=e.cursor, node=WebhookEvent(listed=e, body=_body(e.body)))
            for e in page.events
        ]
        return WebhookEventConnection(
            edges=edges,
            page_info=PageInfo(has_next_page=page.has_next, end_cursor=page.end_cursor),
        )


@strawberry.type
class WebhookMutations:
    @strawberry.mutation(
        name="createWebhookEndpoint",
        description="A new endpoint for the tenant's events (`events` null or empty: every "
        "type). The URL is https (http too outside production) to a public address. The "
        "answer holds its secret, shown this once.",
    )
    async def create_webhook_endpoint(
        self,
        info: Info[Any, Any],
        url: str,
        events: list[WebhookEventType] | None = None,
        description: str | None = None,
    ) -> WebhookEndpointWithSecret:
        tenant = _caller(info)
        try:
            endpoint = await _endpoints(info).create(tenant, url, _types(events), description)
        except Refused as refused:
            raise api_error(refused) from None
        shown = WebhookEndpoint(endpoint=endpoint, tenant=tenant, since=None)
        return WebhookEndpointWithSecret(endpoint=shown, secret=endpoint.secret)

    @strawberry.mutation(
        name="updateWebhookEndpoint",
        description="Change the given fields (null: kept; `events: []`: every type).",
    )
    async def update_webhook_endpoint(
        self,
        info: Info[Any, Any],
        id: strawberry.ID,
        url: str | None = None,
        events: list[WebhookEventType] | None = None,
        description: str | None = None,
        enabled: bool | None = None,
    ) -> WebhookEndpoint:
        tenant = _caller(info)
        try:
            endpoint = await _endpoints(info).update(
                tenant,
                str(id),
                url=url,
                events=None if events is None else _types(events),
                description=description,
                enabled=enabled,
            )
            return await _found(info, tenant, endpoint, id)
        except Refused as refused:
            raise api_error(refused) from None

    @strawberry.mutation(
        name="deleteWebhookEndpoint",
        description="The endpoint, its log and its undelivered events are gone.",
    )
    async def delete_webhook_endpoint(self, info: Info[Any, Any], id: strawberry.ID) -> bool:
        tenant = _caller(info)
        try:
            deleted = await _endpoints(info).delete(tenant, str(id))
        except Refused as refused:
            raise api_error(refused) from None
        if not deleted:
            raise _not_found(id)
        return True

    @strawberry.mutation(
        name="rotateWebhookSecret",
        description="A new secret, shown in this answer only; the previous one still signs "
        "for 24 hours, so receivers can switch without refusing events.",
    )
    async def rotate_webhook_secret(
        self,
        info: Info[Any, Any],
        id: strawberry.ID,
        idempotency_key: Annotated[
            str | None, strawberry.argument(description=ROTATION_KEY)
        ] = None,
    ) -> WebhookEndpointWithSecret:
        tenant = _caller(info)
        try:
            context_service(info).check_idempotency_key(idempotency_key)
        except Refused as refused:
            raise ApiError("BAD_USER_INPUT", refused.message) from None
        try:
            endpoint = await _endpoints(info).rotate(tenant, str(id), idempotency_key)
            shown = await _found(info, tenant, endpoint, id)
        except Refused as refused:
            raise api_error(refused) from None
        return WebhookEndpointWithSecret(endpoint=shown, secret=shown.endpoint.secret)

    @strawberry.mutation(
        name="redeliverWebhookEvent",
        description="Send an event to the endpoint again (e.g. one of its failedEvents), "
        "with the same id and body; events are kept 3 days. NOT_FOUND for an unknown "
        "endpoint or an event that expired. The same as retryWebhookEvent.",
    )
    async def redeliver_webhook_event(
        self, info: Info[Any, Any], endpoint_id: strawberry.ID, event_id: strawberry.ID
    ) -> bool:
        return await _retry(info, endpoint_id, event_id)

    @strawberry.mutation(
        name="retryWebhookEvent",
        description="Send an event to the endpoint now: one still retrying (or queued behind "
        "one that is) goes at once, in its game's order, without using up a retry; one given "
        "up or delivered already is sent again with the same id and body. Events are kept 3 "
        "days. NOT_FOUND for an unknown endpoint or an event that expired.",
    )
    async def retry_webhook_event(
        self, info: Info[Any, Any], endpoint_id: strawberry.ID, event_id: strawberry.ID
    ) -> bool:
        return await _retry(info, endpoint_id, event_id)

    @strawberry.mutation(
        name="sendTestWebhookEvent",
        description="Send a signed `webhook.test` event (data: `endpointId`) to this endpoint "
        "only, whatever types it receives; answers the event's id (its Webhook-Id). The "
        "attempt shows in the endpoint's deliveries. NOT_FOUND for an unknown endpoint.",
    )
    async def send_test_webhook_event(
        self, info: Info[Any, Any], endpoint_id: strawberry.ID
    ) -> strawberry.ID:
        tenant = _caller(info)
        try:
            message = await _tenant_events(info).send_test(tenant, str(endpoint_id))
        except Refused as refused:
            raise api_error(refused) from None
        if message is None:
            raise _not_found(endpoint_id)
        return strawberry.ID(message)


async def _retry(info: Info[Any, Any], endpoint_id: strawberry.ID, event_id: strawberry.ID) -> bool:
    tenant = _caller(info)
    try:
        queued = await _tenant_events(info).retry(tenant, str(endpoint_id), str(event_id))
    except Refused as refused:
        raise api_error(refused) from None
    if not queued:
        raise ApiError(
            "NOT_FOUND", f"no event {str(event_id)[:100]!r} for endpoint {endpoint_id!r}"
        )
    return True


def _caller(info: Info[Any, Any]) -> str:
    """The caller's tenant; UNAUTHORIZED without a valid X-API-Key when keys are set."""
    try:
        return context_service(info).webhook_tenant(context_api_key(info))
    except Refused as refused:
        raise api_error(refused) from None


def _endpoints(info: Info[Any, Any]) -> EndpointStore:
    store: EndpointStore = info.context["endpoints"]
    return store


def _tenant_events(info: Info[Any, Any]) -> TenantEvents:
    events: TenantEvents = info.context["tenant_events"]
    return events


def _types(events: list[WebhookEventType] | None) -> list[str]:
    return [e.value for e in events or []]


def _bounded(name: str, value: int, most: int) -> None:
    if not 1 <= value <= most:
        raise ApiError("BAD_USER_INPUT", f"{name} is 1 to {most}")


def _not_found(id: object) -> ApiError:
    return ApiError("NOT_FOUND", f"no webhook endpoint {str(id)[:100]!r}")


async def _found(
    info: Info[Any, Any], tenant: str, endpoint: Endpoint | None, id: object
) -> WebhookEndpoint:
    """The endpoint shown with its failing state; NOT_FOUND when there is none."""
    if endpoint is None:
        raise _not_found(id)
    since = await _endpoints(info).failing_since(tenant, endpoint.id)
    return WebhookEndpoint(endpoint=endpoint, tenant=tenant, since=since)


def _body(raw: bytes) -> dict[str, Any]:
    body: dict[str, Any] = msgspec.json.decode(raw)
    return body


def _time(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)


def _delivery(attempt: Attempt) -> WebhookDelivery:
    return WebhookDelivery(
        at=_time(attempt.at),
        event_id=strawberry.ID(attempt.message),
        event_type=WebhookEventType(attempt.type),
        game_id=strawberry.ID(attempt.game_id),
        attempt=attempt.attempt,
        outcome=WebhookDeliveryOutcome(attempt.outcome),
        http_status=attempt.status,
        latency_ms=attempt.latency_ms,
        error=attempt.error or None,
    )


def _failed_event(message: str, when: float) -> WebhookFailedEvent:
    parsed = parse_message_id(message)
    return WebhookFailedEvent(
        event_id=strawberry.ID(message),
        event_type=None if parsed is None else WebhookEventType(parsed[2]),
        game_id=None if parsed is None else strawberry.ID(parsed[0]),
        failed_at=_time(when),
    )
