"""What became of a tenant's webhook events (docs/webhooks.md): each endpoint's
delivery log and given-up events, events retried by hand or sent as a test, the tenant's events
listed by cursor. The endpoints themselves are endpoints.py's.

Every key is one of model.py's; a step that touches several of a tenant's keys is one Lua
script in its hash slot. A retry or a test the tenant asks for is written as an endpoint change
is (endpoints.acked): with RULES_REPLICA_ACK it is answered only once replicas have it.
"""

from __future__ import annotations

import base64
import re
import secrets
import time
from typing import cast

import msgspec

from service.refusals import Code, Refused
from service.store import RedisStore
from service.webhooks.endpoints import Names, acked, answered, event_types, known_id
from service.webhooks.events import WebhookTest
from service.webhooks.model import (
    EVENTS_PAGE,
    EVENTS_SCAN,
    FAILED_LENGTH,
    LOG_LENGTH,
    MANUAL,
    MANUAL_PER_ENDPOINT,
    MANUAL_PER_TENANT,
    RETENTION,
    TEST_EVENT,
    TEST_RETENTION,
    Attempt,
    Event,
    attempt_decoder,
    drained_key,
    due_key,
    endpoints_key,
    events_key,
    failed_key,
    log_key,
    manual_key,
    message_id,
    message_key,
    parse_message_id,
    queue_key,
    retry_key,
    timestamp,
)

Blobs = list[bytes]
ScoredBlobs = list[tuple[bytes, float]]
Attempts = list[Attempt]
Given = list[tuple[str, float]]  # (message id, when delivery gave up)
Entries = list[tuple[bytes, dict[bytes, bytes]]]
Picked = list[tuple[bytes, str]]
Bodies = list[bytes | None]
MAX_MESSAGE_ID = 300  # "msg_" + a game id, a version and a type: far below

event_encoder = msgspec.json.Encoder()
_STREAM_ID = re.compile(r"[0-9]{1,20}-[0-9]{1,20}")


class ListedEvent(msgspec.Struct, frozen=True):
    """One event of webhookEvents: its cursor, its id (Webhook-Id) and its body as sent."""

    cursor: str
    message: str
    body: bytes


class EventPage(msgspec.Struct, frozen=True):
    events: list[ListedEvent]
    end_cursor: str | None  # where the next page starts (past what was read, filtered or not)
    has_next: bool


def encode_event_cursor(entry_id: str) -> str:
    """An opaque cursor for an entry of the tenant's events stream."""
    return "ev_" + base64.urlsafe_b64encode(entry_id.encode()).decode().rstrip("=")


def decode_event_cursor(cursor: str) -> str | None:
    """The stream entry id a cursor names, None when it is not one of ours."""
    if not cursor.startswith("ev_") or len(cursor) > 64:
        return None
    raw = cursor.removeprefix("ev_")
    try:
        entry = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        return None
    return entry if _STREAM_ID.fullmatch(entry) else None


# KEYS: endpoints, message, manual queue, due, failed, the message's game queue, retry,
# drained; ARGV: id, message id, now, retention, MANUAL, game. An event still in its game's
# queue (retrying, or behind one that is) has that queue due now, as a drain does; any other
# kept one joins the manual queue. 1 queued (or queued already), 0 no such endpoint, -1 the
# message expired.
_RETRY = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
if redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
if redis.call('LPOS', KEYS[6], ARGV[2]) then
  if redis.call('ZSCORE', KEYS[7], ARGV[6]) then
    local scheduled = redis.call('ZSCORE', KEYS[4], ARGV[6])
    if scheduled then
      redis.call('HSET', KEYS[8], ARGV[6], scheduled)
      redis.call('ZADD', KEYS[4], ARGV[3], ARGV[6])
    end
    redis.call('ZREM', KEYS[7], ARGV[6])
  end
  return 1
end
if not redis.call('LPOS', KEYS[3], ARGV[2]) then redis.call('RPUSH', KEYS[3], ARGV[2]) end
redis.call('EXPIRE', KEYS[3], ARGV[4])
redis.call('ZADD', KEYS[4], 'NX', ARGV[3], ARGV[5])
redis.call('ZREM', KEYS[5], ARGV[2])
return 1
"""
# KEYS: endpoints, message, manual queue, due; ARGV: id, message id, body, now, retention,
# MANUAL. 1 queued, 0 no such endpoint.
_SEND_TEST = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[5])
redis.call('RPUSH', KEYS[3], ARGV[2])
redis.call('EXPIRE', KEYS[3], ARGV[5])
redis.call('ZADD', KEYS[4], 'NX', ARGV[4], ARGV[6])
return 1
"""


# KEYS: the endpoint's bucket, the tenant's. ARGV: now, the endpoint's and the tenant's a
# minute. Takes one from both if both hold one (each refills to its size over a minute): "0";
# else the seconds until both do.
_SPEND = """
local now = tonumber(ARGV[1])
local function level(key, size)
  local held = redis.call('HMGET', key, 't', 's')
  local tokens, stamp = tonumber(held[1]) or size, tonumber(held[2]) or now
  return math.min(size, tokens + math.max(now - stamp, 0) * size / 60)
end
local sizes = {tonumber(ARGV[2]), tonumber(ARGV[3])}
local levels = {level(KEYS[1], sizes[1]), level(KEYS[2], sizes[2])}
local wait = 0
for i = 1, 2 do
  if levels[i] < 1 then wait = math.max(wait, (1 - levels[i]) * 60 / sizes[i]) end
end
if wait > 0 then return tostring(wait) end
for i = 1, 2 do
  redis.call('HSET', KEYS[i], 't', tostring(levels[i] - 1), 's', ARGV[1])
  redis.call('EXPIRE', KEYS[i], 120)
end
return '0'
"""


class TenantEvents:
    def __init__(self, store: RedisStore) -> None:
        self.store = store
        redis = self.redis = store.redis
        self._retry = redis.register_script(_RETRY)
        self._send_test = redis.register_script(_SEND_TEST)
        self._spend = redis.register_script(_SPEND)

    async def spend(self, tenant: str, endpoint_id: str, now: float | None = None) -> None:
        """One of the tests and retries the endpoint and its tenant may ask for a minute
        (MANUAL_PER_ENDPOINT, MANUAL_PER_TENANT): RATE_LIMITED, with the seconds to wait,
        when either bucket is empty; nothing is queued then."""
        keys = [manual_key(tenant, endpoint_id), manual_key(tenant, "")]
        args = [time.time() if now is None else now, MANUAL_PER_ENDPOINT, MANUAL_PER_TENANT]
        wait = float(await answered(self._spend(keys, args)))
        if wait > 0:
            raise Refused(
                Code.RATE_LIMITED,
                f"at most {MANUAL_PER_ENDPOINT} tests and retries a minute for an endpoint and "
                f"{MANUAL_PER_TENANT} for a tenant: retry in {wait:.0f} s",
                retry_after=wait,
            )

    async def log(self, tenant: str, endpoint_id: str, last: int) -> Attempts:
        """The endpoint's last `last` delivery attempts, newest first."""
        key = log_key(tenant, endpoint_id)
        count = min(max(last, 0), LOG_LENGTH)
        if not count:
            return []
        blobs = cast(Blobs, await answered(self.redis.lrange(key, 0, count - 1)))
        return [attempt_decoder.decode(blob) for blob in blobs]

    async def failed(self, tenant: str, endpoint_id: str, last: int) -> Given:
        """(message id, when delivery gave up) of the last `last` given-up events, newest
        first."""
        key = failed_key(tenant, endpoint_id)
        count = min(max(last, 0), FAILED_LENGTH)
        if not count:
            return []
        pending = self.redis.zrevrange(key, 0, count - 1, withscores=True)
        rows = cast(ScoredBlobs, await answered(pending))
        return [(member.decode(), float(score)) for member, score in rows]

    async def retry(self, tenant: str, endpoint_id: str, message: str) -> bool:
        """Send the message to the endpoint now: one still retrying in its game's queue (or
        queued behind one that is) has that queue due at once, without using up a pause of
        its schedule; one given up or delivered already joins the endpoint's manual queue.
        False when the endpoint or the message (kept RETENTION seconds) is gone."""
        if not known_id(endpoint_id) or len(message) > MAX_MESSAGE_ID:
            return False
        named = parse_message_id(message)
        if named is None:
            return False
        if not await answered(self.redis.hexists(endpoints_key(tenant), endpoint_id)):
            return False
        await self.spend(tenant, endpoint_id)
        game = named[0]
        keys = [
            endpoints_key(tenant),
            message_key(tenant, message),
            queue_key(tenant, endpoint_id, MANUAL),
            due_key(tenant, endpoint_id),
            failed_key(tenant, endpoint_id),
            queue_key(tenant, endpoint_id, game),
            retry_key(tenant, endpoint_id),
            drained_key(tenant, endpoint_id),
        ]
        args: list[str | float] = [endpoint_id, message, time.time(), RETENTION, MANUAL, game]
        queued = await acked(self.store, "endpoint.retry", tenant, self._retry, keys, args)
        return int(queued) == 1

    async def send_test(self, tenant: str, endpoint_id: str) -> str | None:
        """Queue a signed `webhook.test` event for the endpoint alone (its manual queue, due
        now, whatever types it subscribed to); its message id, None when there is no such
        endpoint."""
        if not known_id(endpoint_id):
            return None
        if not await answered(self.redis.hexists(endpoints_key(tenant), endpoint_id)):
            return None
        await self.spend(tenant, endpoint_id)
        message = message_id("test_" + secrets.token_urlsafe(12), 0, TEST_EVENT)
        now = time.time()
        data = WebhookTest(endpoint_id)
        body = event_encoder.encode(Event(type=TEST_EVENT, timestamp=timestamp(now), data=data))
        keys = [
            endpoints_key(tenant),
            message_key(tenant, message),
            queue_key(tenant, endpoint_id, MANUAL),
            due_key(tenant, endpoint_id),
        ]
        test: list[str | float | bytes] = [endpoint_id, message, body, now, TEST_RETENTION, MANUAL]
        queued = await acked(self.store, "endpoint.test", tenant, self._send_test, keys, test)
        return message if int(queued) == 1 else None

    async def events(
        self, tenant: str, after: str | None, types: Names | None, first: int
    ) -> EventPage:
        """The tenant's events after the cursor `after` (None: from the oldest kept), oldest
        first, of `types` (None or empty: all): at most `first` (1 to EVENTS_PAGE) of them,
        found among at most EVENTS_SCAN entries, so a page costs the same whatever is asked.
        A cursor that is not one of ours is refused."""
        start = "-"
        if after is not None:
            entry = decode_event_cursor(after)
            if entry is None:
                raise Refused(Code.BAD_INPUT, "after is not a cursor of this list")
            start = "(" + entry
        wanted = set(event_types(types))
        count = min(max(first, 1), EVENTS_PAGE)
        key = events_key(tenant)
        scan = EVENTS_SCAN if wanted else count
        rows = cast(Entries, await answered(self.redis.xrange(key, start, "+", count=scan)))
        picked: Picked = []
        last = None
        for entry_id, fields in rows:
            last = entry_id
            if not wanted or fields.get(b"t", b"").decode() in wanted:
                picked.append((entry_id, fields.get(b"m", b"").decode()))
                if len(picked) == count:
                    break
        if last is None:
            return EventPage([], after, False)
        keys = [message_key(tenant, m) for _, m in picked]
        bodies = cast(Bodies, await answered(self.redis.mget(keys)) if keys else [])
        found = [
            ListedEvent(encode_event_cursor(entry_id.decode()), message, body)
            for (entry_id, message), body in zip(picked, bodies, strict=True)
            if body is not None  # expired meanwhile
        ]
        end = encode_event_cursor(last.decode())
        more = await answered(self.redis.xrange(key, "(" + last.decode(), "+", count=1))
        return EventPage(found, end, bool(more))
