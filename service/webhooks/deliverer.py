"""The workers' side of webhooks (docs/webhooks.md): from the outboxes to the
endpoints, at least once, in order per game and endpoint.

1. Fan-out. Each worker reads the outbox streams (one per tenant and lane, consumer group
   GROUP). For an entry it stores each event's body once under its message id and appends that
   id to the queue of every endpoint that wants it, one list per endpoint and game, all in one
   script in the tenant's slot; then (with RULES_REPLICA_ACK once the replicas of the tenant's
   slot hold that) it acknowledges the entry. A worker that dies in between
   leaves the entry pending; another takes it over (XAUTOCLAIM) and fans it out again, which
   changes nothing: message ids are fixed by the game, version and type, and an id already
   stored is not queued twice.
2. Delivery. A queue with something to send is a member (its game id) of the endpoint's due
   set, scored with when to try next. A worker claims due members by pushing their score past
   a lease, so one queue has one attempt in flight at a time (order per game), sends its head,
   and settles it in one script: delivered (popped, the next one due now), retrying (the same
   head later, after the next pause of RULES_WEBHOOK_RETRY_SECONDS with +-10% jitter, the
   endpoint marked failing) or, with the pauses used up, failed (popped into the endpoint's
   failed set for redelivery). A delivery drains the endpoint: the receiver is back, so the
   games waiting for a retry there are due at once (or a first pause after their last try,
   if that is later: a game the receiver refuses alone is not hammered; such a drained
   attempt, if it fails, keeps the retry it had and uses up no pause), and the
   endpoint is healthy again once no game is retrying. A worker that dies mid-delivery leaves
   its claim to run out; another worker then sends the same message again (same Webhook-Id:
   receivers dedupe by it).
3. A worker has at most RULES_WEBHOOK_CONCURRENCY attempts in flight, at most half of them for
   one tenant and RULES_WEBHOOK_ENDPOINT_CONCURRENCY to one endpoint, each bounded by
   RULES_WEBHOOK_TIMEOUT_SECONDS, so a slow endpoint holds a few slots and never the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import Counter
from typing import Any

import httpx
import msgspec
from redis.exceptions import RedisError, ResponseError

from service import metrics
from service.settings import Settings
from service.store import NotReplicated, RedisStore, StoreUnavailable
from service.store.jobs import LANES, first_entries
from service.store.outbox import outbox_key
from service.webhooks import delivery
from service.webhooks import delivery_scripts as scripts
from service.webhooks.endpoints import EndpointStore
from service.webhooks.model import (
    DRAIN_BATCH,
    FAILED_LENGTH,
    GROUP,
    LOG_LENGTH,
    RETENTION,
    Attempt,
    Endpoint,
    Event,
    drained_key,
    due_key,
    endpoints_key,
    events_key,
    failed_key,
    failing_key,
    log_key,
    marker_key,
    message_id,
    message_key,
    parse_message_id,
    queue_key,
    retry_key,
    tries_key,
)

log = logging.getLogger("service.webhooks")
REPAIR_EVERY = 30.0  # seconds between repairs: groups, outbox switches, dead workers' entries

_events_decoder = msgspec.json.Decoder(list[Event])
_encoder = msgspec.json.Encoder()


class Claimed(msgspec.Struct, frozen=True):
    tenant: str
    endpoint: Endpoint
    game_id: str
    message: str
    body: bytes | None  # None: the message expired
    tries: int
    scheduled: float | None = None  # a drain pulled it forward from then (epoch s)


class Deliverer:
    def __init__(
        self, store: RedisStore, settings: Settings, consumer: str, tenants: list[str]
    ) -> None:
        redis: Any = store.redis
        self.redis = redis
        self.store = store
        self.endpoints = EndpointStore(store, settings)
        self.settings = settings
        self.consumer = consumer
        self.tenants = tenants
        self.lease = settings.webhook_timeout_seconds + settings.worker_reclaim_seconds
        self.client = httpx.AsyncClient(
            follow_redirects=False,
            trust_env=False,
            verify=delivery.trusted(settings.webhook_ca_file),
        )
        self.outbox_due: set[int] = set(range(LANES))
        self.held: set[tuple[int, str]] = set()  # (lane, tenant) of the outboxes with entries
        self.outboxes = {
            outbox_key(lane, tenant).encode(): (lane, tenant)
            for tenant in tenants
            for lane in range(LANES)
        }
        self.rung = asyncio.Event()
        # attempts in flight here, by ("endpoint", id) and by ("tenant", id)
        self.busy: Counter[tuple[str, str]] = Counter()
        self.turn = 0  # the tenant that claims first in the next pass
        self.tasks: set[asyncio.Task[None]] = set()
        self.repaired = self.swept = 0.0
        self._fan_out = redis.register_script(scripts.FAN_OUT)
        self._claim = redis.register_script(scripts.CLAIM)
        self._settle = redis.register_script(scripts.SETTLE)
        self._tidy = redis.register_script(scripts.TIDY)

    def wake(self, lane: int) -> None:
        """An outbox of `lane` has something new (the commit script's wake-up)."""
        self.outbox_due.add(lane)
        self.rung.set()

    async def run(self, stopping: asyncio.Event) -> None:
        """Fan out and deliver until `stopping` is set; attempts in flight then get their
        timeout to finish (a cut one is sent again by another worker after its lease)."""
        try:
            while not stopping.is_set():
                self.rung.clear()
                try:
                    await self._pass()
                except (RedisError, StoreUnavailable) as exc:
                    log.warning("webhooks: redis unavailable (%s); retrying", type(exc).__name__)
                except Exception:  # a bug: logged, and the deliveries go on
                    log.exception("webhooks: unexpected error; retrying")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.rung.wait(), self.settings.worker_poll_seconds)
        finally:
            if self.tasks:
                await asyncio.wait(self.tasks, timeout=self.settings.webhook_timeout_seconds)
            for task in self.tasks:
                task.cancel()
            await self.client.aclose()

    async def _pass(self) -> None:
        now = time.time()
        listed = {tenant: await self.endpoints.list(tenant) for tenant in self.tenants}
        if now - self.swept >= self.settings.worker_poll_seconds:
            # every outbox that holds entries is looked at (a wake-up may have been lost)
            self.held = await self._export_backlog(listed)
            self.outbox_due.update(lane for lane, _ in self.held)
            self.swept = now
        if now - self.repaired > min(REPAIR_EVERY, self.settings.worker_reclaim_seconds):
            await self.ensure_groups()
            for tenant in self.tenants:
                await self.endpoints.sync_flags(tenant, repair=True)
            await self._reclaim_outboxes()
            self.repaired = now
        while self.outbox_due:
            await self._drain(self.outbox_due.pop())
        await self._start_deliveries(listed)

    async def ensure_groups(self) -> None:
        for tenant in self.tenants:
            for lane in range(LANES):
                with contextlib.suppress(ResponseError):  # BUSYGROUP: it exists
                    await self.redis.xgroup_create(
                        outbox_key(lane, tenant), GROUP, id="0", mkstream=True
                    )

    # 1. Fan-out

    async def _drain(self, lane: int) -> None:
        streams = {outbox_key(lane, tenant): ">" for tenant in self.tenants}
        try:
            reply = await self.redis.xreadgroup(GROUP, self.consumer, streams, count=64)
        except ResponseError as exc:  # NOGROUP: the stream was removed under us
            if "NOGROUP" not in str(exc):
                raise
            await self.ensure_groups()
            return
        for key, entries in reply or []:
            tenant = self.tenants[list(streams).index(key.decode())]
            if entries and not await self._replicated(lane, tenant):
                continue  # left pending: reclaimed once the lease runs out
            await self._fan_out_entries(tenant, lane, entries)
            if entries:
                self.outbox_due.add(lane)  # maybe more

    async def _replicated(self, lane: int, tenant: str) -> bool:
        """With RULES_REPLICA_ACK, whether the replicas hold the outbox entries just read: the
        commit that wrote them may not be confirmed, and a failover could still take it back
        (its events would announce a version that never was). A marker written in the lane's
        slot after them, and WAIT, tell (RedisStore.confirm_marked); without the setting, True."""
        try:
            await self.store.confirm_marked("webhooks", f"{outbox_key(lane, tenant)}:w", "")
        except NotReplicated:
            log.info("webhooks: the outbox of %s in lane %d waits for its replicas", tenant, lane)
            return False
        return True

    async def _reclaim_outboxes(self) -> None:
        """Outbox entries a dead worker read but never acknowledged (in the outboxes that
        held entries at the last look: an entry is deleted once fanned out)."""
        for lane, tenant in sorted(self.held):
            key = outbox_key(lane, tenant)
            reply = await self.redis.xautoclaim(
                key, GROUP, self.consumer, int(self.lease * 1000), "0-0", count=64
            )
            if reply[1] and not await self._replicated(lane, tenant):
                continue
            await self._fan_out_entries(tenant, lane, [e for e in reply[1] if e[1]])

    async def _fan_out_entries(
        self, tenant: str, lane: int, entries: list[tuple[bytes, dict[bytes, bytes]]]
    ) -> None:
        """Fan the entries out, then acknowledge and delete them in the outbox, but with
        RULES_REPLICA_ACK only once the replicas of the tenant's slot hold what the fan-out
        wrote there: the outbox (the lane's slot) is often on another master, and an entry
        deleted there while its fan-out dies with the tenant's master in a failover would be
        an event lost for good. Left pending, it is fanned out again once its lease runs out,
        which changes nothing the replicas already hold (a stored message id is not queued
        twice)."""
        if not entries:
            return
        for _, fields in entries:
            await self._fan_out_entry(tenant, fields)
        if not await self._fanned_out(tenant):
            return
        key = outbox_key(lane, tenant)
        done = [entry for entry, _ in entries]
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.xack(key, GROUP, *done)
            pipe.xdel(key, *done)
            await pipe.execute()

    async def _fanned_out(self, tenant: str) -> bool:
        """With RULES_REPLICA_ACK, whether the replicas of the tenant's slot hold every fan-out
        written there so far (a marker after them, and WAIT); without the setting, True."""
        try:
            await self.store.confirm_marked("webhooks", marker_key(tenant), "")
        except NotReplicated:
            log.info("webhooks: the fan-out of %s waits for its replicas", tenant)
            return False
        return True

    async def _fan_out_entry(self, tenant: str, fields: dict[bytes, bytes]) -> None:
        try:
            events = _events_decoder.decode(fields[b"e"])
            game_id = fields[b"g"].decode()
        except (KeyError, msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError):
            events, game_id = [], ""  # not an entry this release understands: dropped
        endpoints = await self.endpoints.list(tenant)
        now = time.time()
        oldest = int((now - RETENTION) * 1000)
        for event in events:
            message = message_id(game_id, int(event.data.get("version", 0)), event.type)
            keys = [message_key(tenant, message), events_key(tenant)]
            for endpoint in endpoints:
                if endpoint.wants(event.type):
                    keys += [queue_key(tenant, endpoint.id, game_id), due_key(tenant, endpoint.id)]
            body = _encoder.encode(event)
            args = [body, RETENTION, repr(now), game_id, message, event.type, oldest]
            await self._fan_out(keys=keys, args=args)

    # 2. Delivery

    async def _start_deliveries(self, listed: dict[str, list[Endpoint]]) -> None:
        """Claim what is due, as far as the caps allow: per endpoint, per tenant (half of the
        worker's attempts, so one tenant's slow endpoints never take every slot) and per
        worker; the tenants take turns at being first."""
        settings = self.settings
        self.turn = (self.turn + 1) % len(self.tenants)
        for tenant in self.tenants[self.turn :] + self.tenants[: self.turn]:
            for endpoint in listed[tenant]:
                free = min(
                    settings.webhook_endpoint_concurrency - self.busy["endpoint", endpoint.id],
                    max(settings.webhook_concurrency // 2, 1) - self.busy["tenant", tenant],
                    settings.webhook_concurrency - len(self.tasks),
                )
                if not endpoint.enabled or free <= 0:
                    continue
                for claimed in await self._claim_due(tenant, endpoint, free):
                    self.busy.update([("endpoint", endpoint.id), ("tenant", tenant)])
                    task = asyncio.create_task(self._deliver(claimed))
                    self.tasks.add(task)
                    task.add_done_callback(self.tasks.discard)

    async def _claim_due(self, tenant: str, endpoint: Endpoint, count: int) -> list[Claimed]:
        now = time.time()
        due = due_key(tenant, endpoint.id)
        keys = [due, retry_key(tenant, endpoint.id), drained_key(tenant, endpoint.id)]
        reply = await self._claim(keys=keys, args=[repr(now), repr(now + self.lease), count])
        claimed = []
        for raw, scheduled in zip(reply[0::2], reply[1::2], strict=True):
            game_id = raw.decode()
            queue = queue_key(tenant, endpoint.id, game_id)
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.lindex(queue, 0)
                pipe.hget(tries_key(tenant, endpoint.id), game_id)
                head, tries = await pipe.execute()
            if head is None:
                tidy = [queue, due, tries_key(tenant, endpoint.id), *keys[1:]]
                await self._tidy(keys=tidy, args=[game_id])
                continue
            message = head.decode()
            body = await self.redis.get(message_key(tenant, message))
            was = float(scheduled) if scheduled else None
            claimed.append(Claimed(tenant, endpoint, game_id, message, body, int(tries or 0), was))
        return claimed

    async def _deliver(self, claimed: Claimed) -> None:
        endpoint, attempt = claimed.endpoint, claimed.tries + 1
        pauses = self.settings.webhook_retry_seconds
        # a drained attempt (pulled forward by another delivery's success or by hand) that
        # fails keeps the retry it had: it uses up no pause of the schedule
        drained = claimed.scheduled is not None and claimed.scheduled > time.time()
        try:
            started = time.time()
            if claimed.body is None:
                answer = delivery.Answer(None, 0.0, "the message expired")
                outcome = "DROPPED"
            else:
                answer = await delivery.post(
                    self.client,
                    endpoint,
                    claimed.message,
                    claimed.body,
                    production=self.settings.production,
                    allow_private=self.settings.webhook_allow_private,
                    timeout=self.settings.webhook_timeout_seconds,
                )
                if answer.delivered:
                    outcome = "DELIVERED"
                else:
                    outcome = "RETRYING" if drained or attempt <= len(pauses) else "FAILED"
            pause = pauses[min(attempt, len(pauses)) - 1]
            retry_at = time.time() + pause * random.uniform(0.9, 1.1)
            if drained:
                assert claimed.scheduled is not None
                retry_at = claimed.scheduled
            counted = not drained
            await self.settle(claimed, attempt, outcome, answer, started, retry_at, counted)
        except RedisError as exc:  # the claim runs out and the attempt is made again
            log.warning("webhooks: could not settle %s (%s)", claimed.message, type(exc).__name__)
        finally:
            self.busy.subtract([("endpoint", endpoint.id), ("tenant", claimed.tenant)])
            self.rung.set()

    async def settle(
        self,
        claimed: Claimed,
        attempt: int,
        outcome: str,
        answer: delivery.Answer,
        started: float,
        retry_at: float,
        counted: bool = True,
    ) -> None:
        tenant, endpoint = claimed.tenant, claimed.endpoint.id
        now = time.time()
        named = parse_message_id(claimed.message)
        line = Attempt(
            at=started,
            message=claimed.message,
            type=named[2] if named else "",
            game_id=claimed.game_id,
            attempt=attempt,
            outcome=outcome,
            status=answer.status,
            latency_ms=answer.latency_ms,
            error=answer.error,
        )
        keys = [
            queue_key(tenant, endpoint, claimed.game_id),
            due_key(tenant, endpoint),
            tries_key(tenant, endpoint),
            log_key(tenant, endpoint),
            failed_key(tenant, endpoint),
            failing_key(tenant),
            endpoints_key(tenant),
            retry_key(tenant, endpoint),
            drained_key(tenant, endpoint),
        ]
        args = [
            claimed.message,
            claimed.game_id,
            outcome,
            repr(retry_at),
            msgspec.msgpack.encode(line),
            repr(now),
            endpoint,
            LOG_LENGTH,
            FAILED_LENGTH,
            RETENTION,
            "1" if counted else "0",
            repr(now + self.settings.webhook_retry_seconds[0]),
            DRAIN_BATCH,
        ]
        await self._settle(keys=keys, args=args)
        metrics.WEBHOOK_ATTEMPTS.labels(outcome.lower()).inc()
        metrics.WEBHOOK_ATTEMPT_SECONDS.observe(answer.latency_ms / 1000)
        if outcome in ("DELIVERED", "FAILED"):
            metrics.WEBHOOK_TRIES.observe(attempt)
        log.info(
            "webhook %s to %s attempt %d: %s %s",
            claimed.message,
            endpoint,
            attempt,
            outcome,
            answer.error or answer.status,
        )

    async def _export_backlog(self, listed: dict[str, list[Endpoint]]) -> set[tuple[int, str]]:
        """The outboxes' backlog and the endpoints' overdue deliveries, exported; returns the
        outboxes, as (lane, tenant), that hold entries. An entry is deleted once fanned out,
        so one XREAD per lane of the first entry of each of its outboxes (they share its
        slot), all lanes pipelined, finds them; then XLEN of those only."""
        now, oldest, overdue = time.time(), 0.0, 0.0
        async with self.redis.pipeline(transaction=False) as pipe:
            for lane in range(LANES):
                first_entries(pipe, self.redis, [outbox_key(lane, t) for t in self.tenants])
            replies = await pipe.execute()
        firsts = {
            self.outboxes[key]: entries[0][0]
            for reply in replies
            for key, entries in reply or []
            if entries
        }
        for entry in firsts.values():
            oldest = max(oldest, now - int(entry.split(b"-")[0]) / 1000)
        async with self.redis.pipeline(transaction=False) as pipe:
            for lane, tenant in firsts:
                pipe.xlen(outbox_key(lane, tenant))
            pending = sum(await pipe.execute())
        for tenant, endpoints in listed.items():
            for endpoint in endpoints:
                head = await self.redis.zrange(due_key(tenant, endpoint.id), 0, 0, withscores=True)
                if endpoint.enabled and head and head[0][1] < now:
                    overdue = max(overdue, now - head[0][1])
        metrics.WEBHOOK_OUTBOX_PENDING.set(pending)
        metrics.WEBHOOK_OUTBOX_OLDEST_SECONDS.set(oldest)
        metrics.WEBHOOK_OVERDUE_SECONDS.set(overdue)
        return set(firsts)
