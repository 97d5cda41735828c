"""A tenant's webhook endpoints (docs/webhooks.md): saved, listed, changed, deleted,
their secrets rotated, whether their deliveries give up. What became of their events (the
delivery log, given-up events, events retried by hand or sent as a test, the tenant's events
listed by cursor) is tenant_events.py.

Every key is one of model.py's. A tenant's keys share one hash slot, so each step that touches
several of them is one Lua script (atomic on one server and on a cluster); the per-lane flags
that tell the commit script to write the outbox live in the lanes' slots and are written one
command per key. The API (GraphQL and REST) checks who the caller is; this module checks what
an endpoint may be (URL rules, event types, sizes, how many).

Every change a tenant asks for is written through the game store (RedisStore.script_acked,
write_each_acked), so with RULES_REPLICA_ACK it is answered only once replicas have it, as a
move is: a failover must not bring back a rotated secret or a deleted endpoint the tenant was
told are gone (docs/reliability.md, "Replica acknowledgement"). Fewer confirmations raise
NotReplicated (UNAVAILABLE); the change stays on the master and a retry is safe (docs/webhooks.md).
"""

from __future__ import annotations

import base64
import hashlib
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

import msgspec
from redis.exceptions import RedisError

from service import metrics
from service.refusals import Code, Refused
from service.settings import Settings
from service.store import RedisStore, StoreUnavailable
from service.store.jobs import LANES
from service.store.outbox import enabled_key
from service.store.redis_store import CHANGE_NOT_REPLICATED
from service.webhooks import urls
from service.webhooks.model import (
    EVENT_TYPES,
    MANUAL,
    MAX_ENDPOINTS,
    Endpoint,
    drained_key,
    due_key,
    endpoint_decoder,
    endpoint_encoder,
    endpoints_key,
    failed_key,
    failing_key,
    log_key,
    marker_key,
    queue_key,
    retry_key,
    tries_key,
)

T = TypeVar("T")
Names = list[str]
Flags = list[bytes | None]  # the lanes' webhook flags as read (None: not set)
MAX_DESCRIPTION = 200
# deletes a lane's flag only if it still holds the value read before the endpoints were listed
CLEAR_FLAG = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end"
ROTATION_GRACE = 24 * 3600  # seconds the previous secret still signs (docs/webhooks.md)
UPDATE_ATTEMPTS = 5  # compare-and-set rounds against a concurrent change of the same endpoint
ENDPOINT_ID = re.compile(r"ep_[A-Za-z0-9_-]{16}")
UNREADABLE = "this webhook endpoint cannot be read at the moment: a fault on our side"

log = logging.getLogger("service.webhooks")


# KEYS: endpoints; ARGV: id, blob, most endpoints. 1 saved, 0 the tenant has the most already.
_CREATE = """
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
return redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
"""
# KEYS: endpoints; ARGV: id, the blob read, the blob to write. 1 written, 0 it changed or went.
_REPLACE = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""
# KEYS: endpoints, failing, due, tries, log, failed, the manual queue, retry, drained; ARGV:
# id. 1 deleted.
_DELETE = """
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9])
return 1
"""


class BadEndpoint(Refused):
    """What is wrong with an endpoint as given (a sentence for the tenant)."""

    def __init__(self, message: str) -> None:
        super().__init__(Code.BAD_INPUT, message)


def event_types(events: list[str] | None) -> list[str]:
    """The event types as stored: known ones only, each once, in EVENT_TYPES order; empty
    (or None) is every type."""
    chosen = set(events or [])
    unknown = chosen - set(EVENT_TYPES)
    if unknown:
        shown = ", ".join(sorted(repr(e[:40]) for e in unknown)[:5])
        raise BadEndpoint(f"unknown event types {shown}: one of {', '.join(EVENT_TYPES)}")
    return [e for e in EVENT_TYPES if e in chosen]


def description_of(description: str | None) -> str:
    if description is not None and len(description) > MAX_DESCRIPTION:
        raise BadEndpoint(f"a description has at most {MAX_DESCRIPTION} characters")
    return description or ""


def new_secret() -> str:
    """`whsec_` + base64 of 24 random bytes, as the Standard Webhooks libraries expect."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def rotation_digest(key: str) -> str:
    """What an endpoint keeps of its last rotation's idempotency key (Endpoint.rotation_key):
    short, and any string has one ("surrogatepass": no str fails to encode)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def known_id(endpoint_id: str) -> bool:
    """Whether `endpoint_id` is shaped like an id we issue (anything else is not found without
    asking Redis)."""
    return ENDPOINT_ID.fullmatch(endpoint_id) is not None


async def answered(pending: Awaitable[T]) -> T:
    """What Redis answered; StoreUnavailable when it could not answer."""
    try:
        return await pending
    except RedisError as exc:
        raise StoreUnavailable(f"the store is unavailable ({type(exc).__name__})") from exc


async def acked(
    store: RedisStore, command: str, tenant: str, script: Any, keys: Names, args: Any
) -> Any:
    """The reply of a script that changes the tenant's endpoints, once acknowledged by
    RULES_REPLICA_ACK replicas."""
    return await store.script_acked(command, script, keys, args, marker_key(tenant))


class EndpointStore:
    def __init__(self, store: RedisStore, settings: Settings) -> None:
        self.store = store
        redis = self.redis = store.redis
        self.production = settings.production
        self.allow_private = settings.webhook_allow_private
        self._create = redis.register_script(_CREATE)
        self._replace = redis.register_script(_REPLACE)
        self._delete = redis.register_script(_DELETE)
        self.unreadable: set[tuple[str, str]] = set()  # logged already

    async def check_url(self, url: str) -> str:
        try:
            return await urls.check(url, self.production, self.allow_private)
        except urls.BadUrl as exc:
            raise BadEndpoint(str(exc)) from None

    async def create(
        self, tenant: str, url: str, events: list[str] | None, description: str | None
    ) -> Endpoint:
        """A new enabled endpoint with a new secret; BadEndpoint for a URL, event type or
        description that may not be, or when the tenant has MAX_ENDPOINTS already."""
        chosen, described = event_types(events), description_of(description)
        checked = await self.check_url(url)
        now = time.time()
        endpoint = Endpoint(
            id="ep_" + secrets.token_urlsafe(12),
            url=checked,
            events=chosen,
            description=described,
            secret=new_secret(),
            created=now,
            updated=now,
        )
        blob = endpoint_encoder.encode(endpoint)
        keys = [endpoints_key(tenant)]
        args = [endpoint.id, blob, MAX_ENDPOINTS]
        saved = await acked(self.store, "endpoint.create", tenant, self._create, keys, args)
        if not saved:
            raise BadEndpoint(f"a tenant has at most {MAX_ENDPOINTS} webhook endpoints")
        await self.sync_flags(tenant)
        return endpoint

    async def list(self, tenant: str) -> list[Endpoint]:
        """The tenant's endpoints that can be read, oldest first: one that cannot (damaged, or
        written by another release) is left out, so the tenant's others and every other
        tenant's still deliver (docs/reliability.md, "Unreadable records")."""
        saved = cast(dict[bytes, bytes], await answered(self.redis.hgetall(endpoints_key(tenant))))
        found = [self._decoded(tenant, key.decode(), blob) for key, blob in saved.items()]
        return sorted((e for e in found if e is not None), key=lambda e: (e.created, e.id))

    async def get(self, tenant: str, endpoint_id: str) -> Endpoint | None:
        blob = await self._blob(tenant, endpoint_id)
        return None if blob is None else self._readable(tenant, endpoint_id, blob)

    def _decoded(self, tenant: str, endpoint_id: str, blob: bytes) -> Endpoint | None:
        """The endpoint, or None if it cannot be decoded: counted, and logged once per endpoint
        and process (the deliverer lists endpoints on every pass)."""
        try:
            return endpoint_decoder.decode(blob)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            metrics.UNREADABLE_RECORDS.labels("endpoint").inc()
            if (tenant, endpoint_id) not in self.unreadable:
                self.unreadable.add((tenant, endpoint_id))
                log.warning("webhook endpoint %s of %s unreadable (%s)", endpoint_id, tenant, exc)
            return None

    def _readable(self, tenant: str, endpoint_id: str, blob: bytes) -> Endpoint:
        endpoint = self._decoded(tenant, endpoint_id, blob)
        if endpoint is None:
            raise Refused(Code.UNREADABLE_RECORD, UNREADABLE)
        return endpoint

    async def _blob(self, tenant: str, endpoint_id: str) -> bytes | None:
        if not known_id(endpoint_id):
            return None
        blob = await answered(self.redis.hget(endpoints_key(tenant), endpoint_id))
        return cast(bytes | None, blob)

    async def update(
        self,
        tenant: str,
        endpoint_id: str,
        *,
        url: str | None = None,
        events: Names | None = None,
        description: str | None = None,
        enabled: bool | None = None,
    ) -> Endpoint | None:
        """The endpoint with the given fields changed (None: kept; `events=[]`: every type);
        None when there is no such endpoint."""
        changes: dict[str, object] = {}
        if url is not None:
            changes["url"] = await self.check_url(url)
        if events is not None:
            changes["events"] = event_types(events)
        if description is not None:
            changes["description"] = description_of(description)
        if enabled is not None:
            changes["enabled"] = enabled
        updated = await self._change("endpoint.update", tenant, endpoint_id, lambda e: changes)
        if updated is not None and enabled is not None:
            await self.sync_flags(tenant)
        return updated

    async def rotate(
        self, tenant: str, endpoint_id: str, key: str | None = None
    ) -> Endpoint | None:
        """The endpoint with a new secret; the one it replaces still signs for ROTATION_GRACE
        seconds, so a receiver can switch without refusing events. With the idempotency `key`
        of the rotation that made the current secret (a retry after UNAVAILABLE or a lost
        answer), the endpoint as it is, acknowledged like a change: the secret shown is the one
        that signs, and the receiver's still signs alongside."""
        digest = "" if key is None else rotation_digest(key)

        def rotated(endpoint: Endpoint) -> dict[str, object] | None:
            if digest and endpoint.rotation_key == digest:
                return None
            return {
                "secret": new_secret(),
                "previous_secret": endpoint.secret,
                "previous_until": time.time() + ROTATION_GRACE,
                "rotation_key": digest,
            }

        return await self._change("endpoint.rotate", tenant, endpoint_id, rotated)

    async def _change(
        self,
        command: str,
        tenant: str,
        endpoint_id: str,
        changes: Callable[[Endpoint], dict[str, object] | None],
    ) -> Endpoint | None:
        """Read, change and write back only if nobody wrote it meanwhile (compare and set).
        None (no such endpoint) is acknowledged too: the delete it rests on may be unconfirmed;
        so is the endpoint as it is when `changes` answers None (nothing to change): the write
        that made it may be unconfirmed."""
        for _ in range(UPDATE_ATTEMPTS):
            blob = await self._blob(tenant, endpoint_id)
            if blob is None:
                if known_id(endpoint_id):
                    await self._confirmed(command, tenant)
                return None
            endpoint = self._readable(tenant, endpoint_id, blob)
            changing = changes(endpoint)
            if changing is None:
                await self._confirmed(command, tenant)
                return endpoint
            changed = msgspec.structs.replace(endpoint, **changing, updated=time.time())
            written = endpoint_encoder.encode(changed)
            keys = [endpoints_key(tenant)]
            args = [endpoint_id, blob, written]
            if await acked(self.store, command, tenant, self._replace, keys, args):
                return changed
        raise StoreUnavailable("the endpoint kept changing under this update; retry")

    async def _flags(self, keys: Names) -> Flags:
        """The lanes' flags as they are now (one pipeline; on a cluster, one per server)."""

        async def read() -> Flags:
            async with self.redis.pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.get(key)
                return cast(Flags, await pipe.execute())

        return await answered(read())

    async def _confirmed(self, command: str, tenant: str) -> None:
        """With RULES_REPLICA_ACK, once replicas hold every write of the tenant's endpoints so
        far (NotReplicated otherwise)."""
        await self.store.confirm_marked(command, marker_key(tenant), CHANGE_NOT_REPLICATED)

    async def delete(self, tenant: str, endpoint_id: str) -> bool:
        """The endpoint and its delivery state gone (its per-game queues expire on their own,
        RETENTION); False when there was no such endpoint."""
        if not known_id(endpoint_id):
            return False
        keys = [
            endpoints_key(tenant),
            failing_key(tenant),
            due_key(tenant, endpoint_id),
            tries_key(tenant, endpoint_id),
            log_key(tenant, endpoint_id),
            failed_key(tenant, endpoint_id),
            queue_key(tenant, endpoint_id, MANUAL),
            retry_key(tenant, endpoint_id),
            drained_key(tenant, endpoint_id),
        ]
        deleted = bool(
            await acked(self.store, "endpoint.delete", tenant, self._delete, keys, [endpoint_id])
        )
        if deleted:
            await self.sync_flags(tenant)
        return deleted

    async def failing(self, tenant: str) -> dict[str, float]:
        """Endpoint id -> since when its deliveries give up, for the tenant's failing ones."""
        rows = cast(dict[bytes, bytes], await answered(self.redis.hgetall(failing_key(tenant))))
        return {key.decode(): float(value) for key, value in rows.items()}

    async def failing_since(self, tenant: str, endpoint_id: str) -> float | None:
        since = await answered(self.redis.hget(failing_key(tenant), endpoint_id))
        return None if since is None else float(cast(bytes, since))

    async def sync_flags(self, tenant: str, repair: bool = False) -> None:
        """Every lane's flag set while the tenant has an enabled endpoint, none otherwise: the
        commit script writes the outbox only when its lane's flag is there. With
        RULES_REPLICA_ACK, once replicas have them (a flag lost in a failover would drop the
        lane's events silently). The workers' `repair` pass does not wait, and only sets flags.

        A clear races with an endpoint saved meanwhile (its list read just before the save, its
        DEL just after the save's SET would drop the new endpoint's events until the next
        repair). So each set writes a value of its own, the flags are read before the list, and
        a flag is deleted only if it still holds the value read: a set after that read wins."""
        keys = [enabled_key(lane, tenant) for lane in range(LANES)]
        held = [] if repair else await self._flags(keys)
        wanted = any(endpoint.enabled for endpoint in await self.list(tenant))
        if wanted:
            mark = secrets.token_hex(8)
            keep = ("NX",) if repair else ()  # a repair never replaces a value a clear read
            writes: list[tuple[object, ...]] = [("SET", key, mark, *keep) for key in keys]
        elif repair:
            return
        else:
            writes = [
                ("EVAL", CLEAR_FLAG, 1, key, value)
                for key, value in zip(keys, held, strict=True)
                if value
            ]
            if not writes:
                return
        await self.store.write_each_acked("endpoint.flags", writes, acknowledged=not repair)
