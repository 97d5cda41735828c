"""The Redis store. Keys of one game share the hash tag {id}, so it runs on Redis Cluster.

    g:{id}         hash: v = version, r = msgpack Record, w = the record's format (the
                   oldest release that may write it; absent in records of earlier releases),
                   h = the FoldedHistory of a finished game (zlib; records.fold), written
                   once when the game ends, t = JSON {"<seat>": "<sha256 hex>"} of the
                   seats whose token the tenant reissued, which overrides the record's
                   token_hashes (`load`, `reissue`)
    g:{id}:h       list: msgpack HistoryRecord, one per version, oldest first; removed
                   when the game ends and its history is folded into g:{id} h
    g:{id}:i       hash: "<seat>:<idempotency key>" -> version after that move, and
                   "f:<seat>:<idempotency key>" -> the request's fingerprint (entries of
                   earlier releases have none; a separate field keeps their readers working)
    g:{id}:c       hash: slot n -> msgpack Checkpoint, the state at the first committed version
                   at or past n * CHECKPOINT_EVERY (records.py), for past states; lives as
                   long as the record; folded into g:{id} c (zlib) when the game ends
    g:{id}:events  channel: one JSON event per new version
    g:{id}:q       string: a bot job re-queued lately (games from before the lanes only)
    g:{id}:w       string: a marker a replayed answer waits for (RULES_REPLICA_ACK), 1 s
    bots:{bots-n}:<tenant>  stream: the tenant's bot turns due, one lane per slot
                   (service/store/jobs.py); bots:{bots-n}: those of games without a tenant
    ix:{bots-n}:*  sorted sets: a tenant's games, a player's, where a player must act, per
                   lane (service/store/indexes.py), written by the same scripts
    clocks:{bots-n}:<tenant>  sorted set: turn-clock deadlines of the tenant's games in the
                   lane (same scripts); clocks:{bots-n}: those earlier releases wrote
    wh:{bots-n}:o:<tenant>  stream: the tenant's webhook events of the lane's games, written by
                   the same scripts while wh:{bots-n}:on:<tenant> exists (service/webhooks)

On a cluster (`redis+cluster://` URL or `?cluster=true`) the events are sharded pub/sub
(SPUBLISH/SSUBSCRIBE, Redis 7+): they stay on the shard that owns the game's slot instead of
being broadcast over the cluster bus to every node. Subscribers share one pub/sub connection
per process and server (service/store/events.py).

A move costs two round trips: `load` (record and idempotency entry in one pipeline) and
`commit` (one Lua script: version check, record write, history append, idempotency entry,
TTLs, one published event per new version, the bot job if a bot seat is due; all or nothing).

During a rolling upgrade two releases share the games. The commit script refuses to write a
record whose stored format `w` is newer than the writer's (records.FORMAT): an older release
would drop the fields it does not know. `commit` raises UpgradeInProgress then, and nothing
is written (docs/reliability.md, "Rolling upgrades").

When a game ends, `fold` replaces its history list with one compressed value in the record's
hash and shortens the idempotency hash's life to RULES_IDEMPOTENCY_GRACE: a finished game then
costs its record and the folded history (docs/performance.md, "Memory"). It runs after the
final commit, once per game; a game left unfolded (the process died in between) still reads
and expires as before.

Commands are never retried blindly (retries=0): a write whose reply is lost must not be
applied a second time; the client retries with its idempotency key instead.

With RULES_REPLICA_ACK = n > 0, `create` and `commit` send `WAIT n RULES_REPLICA_ACK_TIMEOUT_MS`
right behind the script, in the same round trip and on the same connection (WAIT counts the
replicas that have this connection's own writes; on another one it does not wait for this
write), on a cluster to the node that owns the game's slot. Fewer confirmations: NotReplicated
(UNAVAILABLE), the write stays on the master. `confirm_replicated` does the same for a replayed
answer, whose write another connection made: it writes a short-lived marker in the game's slot
(g:{id}:w) and waits for that, which the replicas only reach after every earlier write.
`reissue` waits like `commit`. The writes of a tenant's webhook endpoints (service/webhooks)
go through `script_acked`, `confirm_marked` and `write_each_acked`: the same WAIT on the
writing connection, behind a marker in their own slot.
"""

from __future__ import annotations

import asyncio
import logging
import time
import zlib
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

import msgspec
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import (
    ClusterDownError,
    MovedError,
    NoScriptError,
    RedisClusterException,
    RedisError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeout

from service import metrics
from service.settings import Settings
from service.store import indexes
from service.store.connection import (
    Client,
    NotReplicated,
    StoreUnavailable,
    UnreadableRecord,
    UpgradeInProgress,
    reread_slots,
)
from service.store.direct import DirectConnections
from service.store.events import EventHub, Subscriber
from service.store.jobs import LANES, WAKE, in_lane_slot, job_key, lane_of
from service.store.outbox import OUTBOX_MAX, enabled_key, outbox_key
from service.store.records import (
    CHECKPOINT_EVERY,
    FORMAT,
    Checkpoint,
    HistoryRecord,
    Record,
    checkpoint_decoder,
    checkpoint_slot,
    history_decoder,
    record_decoder,
    unfold,
    unfold_checkpoints,
)

T = TypeVar("T")
log = logging.getLogger("service.store")
Command = tuple[Any, ...]
MARKER_MS = 1000  # life of the marker a replayed answer waits for (confirm_replicated)
# NotReplicated's message for a write that is not a move (a reissued token, a webhook endpoint)
CHANGE_NOT_REPLICATED = "the change was saved but not yet copied to a standby store; retry it"

# A bot seat due at a version becomes a job on the stream of the game's tenant in its lane (when
# the caller passes that key, i.e. when it shares the game's slot) and a wake-up for idle workers.
_ENQUEUE = f"""
local function enqueue(lane, game, version, seat)
  if seat == '' or not lane then return end
  redis.call('XADD', lane, '*', 'g', game, 'v', version, 's', seat)
  redis.call('PUBLISH', '{WAKE}', lane)
end
"""

# A commit's webhook events (service/webhooks) go to the tenant's outbox of the game's lane,
# KEYS[at], only while the tenant has an enabled endpoint (KEYS[at + 1] exists), with a wake-up.
# The stream is capped (OUTBOX_MAX, approximately): with no worker reading it for days, an
# outbox must not fill Redis.
_OUTBOX = f"""
local function outbox(at, game, version, events)
  if events == '' or not KEYS[at] or redis.call('EXISTS', KEYS[at + 1]) == 0 then return end
  redis.call('XADD', KEYS[at], 'MAXLEN', '~', {OUTBOX_MAX}, '*', 'g', game, 'v', version, 'e', events)
  redis.call('PUBLISH', '{WAKE}', KEYS[at])
end
"""

# A game's entries in its tenant's indexes (service/store/indexes.py): KEYS from `first` on,
# one flag per key, '+' adds the member and '-' removes it, 'c' scores the game id with its
# clock's deadline and 'x' removes it; each key's TTL pushed to `ttl`.
_INDEX = """
local function index(first, member, flags, ttl, game, deadline)
  for i = 1, #flags do
    local key = KEYS[first + i - 1]
    local flag = string.sub(flags, i, i)
    if flag == '+' then
      redis.call('ZADD', key, 0, member)
    elseif flag == '-' then
      redis.call('ZREM', key, member)
    elseif flag == 'c' then
      redis.call('ZADD', key, deadline, game)
    else
      redis.call('ZREM', key, game)
    end
    redis.call('EXPIRE', key, ttl)
  end
end
"""

# KEYS: record, history[, lane[, index keys...[, outbox, outbox switch]]]. ARGV: version,
# record, ttl, game id, bot seat due ('' for none), index member, index flags (one per index
# key), index ttl, clock deadline ('' for none), webhook events ('' for none), record format,
# history entries...
_CREATE = (
    _ENQUEUE
    + _OUTBOX
    + _INDEX
    + """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'r', ARGV[2], 'w', ARGV[11])
if #ARGV > 11 then redis.call('RPUSH', KEYS[2], unpack(ARGV, 12)) end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
enqueue(KEYS[3], ARGV[4], ARGV[1], ARGV[5])
index(4, ARGV[6], ARGV[7], ARGV[8], ARGV[4], ARGV[9])
outbox(4 + #ARGV[7], ARGV[4], ARGV[1], ARGV[10])
return 1
"""
)

# KEYS: record, history, idempotency, checkpoints[, lane[, index keys...[, outbox, outbox
# switch]]]. ARGV: expected version, new version, record, idempotency field ('' for none), ttl,
# game id, final status, request fingerprint, bot seat due ('' for none), index member, index
# flags, index ttl, clock deadline ('' for none), webhook events ('' for none), checkpoint slot
# ('' for none), checkpoint, record format, history entries... A record whose stored format is
# newer than ARGV[17] is not written ('new'): this release would drop what it does not know.
_COMMIT_TEMPLATE = (
    _ENQUEUE
    + _OUTBOX
    + _INDEX
    + """
if ARGV[4] ~= '' then
  local done = redis.call('HGET', KEYS[3], ARGV[4])
  if done then return {'dup', tonumber(done)} end
end
local stored = redis.call('HMGET', KEYS[1], 'v', 'w')
local current = stored[1]
if not current then return {'gone', 0} end
if current ~= ARGV[1] then return {'stale', tonumber(current)} end
if stored[2] and tonumber(stored[2]) > tonumber(ARGV[17]) then
  return {'new', tonumber(stored[2])}
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'r', ARGV[3], 'w', ARGV[17])
redis.call('RPUSH', KEYS[2], unpack(ARGV, 18))
if ARGV[4] ~= '' then redis.call('HSET', KEYS[3], ARGV[4], ARGV[2], 'f:' .. ARGV[4], ARGV[8]) end
if ARGV[15] ~= '' then redis.call('HSET', KEYS[4], ARGV[15], ARGV[16]) end
for i = 1, 4 do redis.call('EXPIRE', KEYS[i], ARGV[5]) end
$EVENTSenqueue(KEYS[5], ARGV[6], ARGV[2], ARGV[9])
index(6, ARGV[10], ARGV[11], ARGV[12], ARGV[6], ARGV[13])
outbox(6 + #ARGV[11], ARGV[6], ARGV[2], ARGV[14])
return {'ok', tonumber(ARGV[2])}
"""
)

# The commit's events, one per new version (`$EVENTS` of the commit script). With
# RULES_REPLICA_ACK the script leaves them out and `RedisStore.announce` publishes once the
# replicas confirmed the write: a subscriber never sees a version a failover may still take back.
_EVENTS = """
local channel = 'g:{' .. ARGV[6] .. '}:events'
for v = tonumber(ARGV[1]) + 1, tonumber(ARGV[2]) do
  local status = 'ACTIVE'
  if v == tonumber(ARGV[2]) then status = ARGV[7] end
  redis.call('$PUBLISH', channel, cjson.encode({gameId = ARGV[6], version = v, status = status}))
end
"""

# KEYS: record, history, idempotency, checkpoints. ARGV: version, folded history, idempotency
# grace, folded checkpoints ('' for none), record format. Only a game still at that version whose
# list holds every entry up to it is folded, so the folded value always stands for the whole
# history; the list goes in the same step, and so do the checkpoints read with it (no commit came
# between). A game a newer release wrote is left to it, as by the commit script.
_FOLD = """
local stored = redis.call('HMGET', KEYS[1], 'v', 'w')
if stored[1] ~= ARGV[1] then return 0 end
if stored[2] and tonumber(stored[2]) > tonumber(ARGV[5]) then return 0 end
if redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'h', ARGV[2])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'c', ARGV[4]) end
redis.call('DEL', KEYS[2], KEYS[4])
local ttl = redis.call('TTL', KEYS[3])
if ttl == -1 or ttl > tonumber(ARGV[3]) then redis.call('EXPIRE', KEYS[3], ARGV[3]) end
return 1
"""


# KEYS: record. ARGV: seat, the new token's sha256 (hex). Sets that seat's entry of the JSON
# field t, the other seats' kept: two reissues never undo each other; 0 if the game is gone.
_REISSUE = """
if redis.call('HEXISTS', KEYS[1], 'v') == 0 then return 0 end
local raw = redis.call('HGET', KEYS[1], 't')
local reissued = {}
if raw then reissued = cjson.decode(raw) end
reissued[ARGV[1]] = ARGV[2]
redis.call('HSET', KEYS[1], 't', cjson.encode(reissued))
return 1
"""

_reissued_decoder = msgspec.json.Decoder(dict[int, str])


# KEYS: a lane's clock deadlines. ARGV: now, the claim's end, how many at most. Returns the
# claimed games and their deadlines, earliest first ({game, deadline, game, deadline...}), and
# the lane's first score after the claim (nil: no clock).
_CLAIM = """
local due = redis.call('ZRANGE', KEYS[1], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, ARGV[3],
  'WITHSCORES')
for i = 1, #due, 2 do redis.call('ZADD', KEYS[1], ARGV[2], due[i]) end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {due, first[2] or false}
"""


class Committed(msgspec.Struct, frozen=True):
    outcome: str  # "ok", "stale", "dup" or "gone" ("new" becomes UpgradeInProgress)
    version: int


class Done(msgspec.Struct, frozen=True):
    """An idempotency entry: the version its move produced and the request's fingerprint
    (None in entries written by earlier releases)."""

    version: int
    fingerprint: str | None = None


_events_encoder = msgspec.json.Encoder()


def _outbox(
    game_id: str, record: Record, lane: list[str], events: Sequence[msgspec.Struct]
) -> list[str]:
    """The webhook outbox of the game's tenant and lane and its switch, when the script writes
    them: events to send, and a lane (the keys share the game's slot)."""
    if not (events and lane and record.tenant):
        return []
    return [
        outbox_key(lane_of(game_id), record.tenant),
        enabled_key(lane_of(game_id), record.tenant),
    ]


def _decoded(game_id: str, what: str, decode: Callable[[], T]) -> T:
    """`decode()`, or UnreadableRecord when the stored value cannot be read (damaged, or
    written by another release): logged in one line with the game id, no traceback, and
    counted, once per read."""
    try:
        return decode()
    except (msgspec.DecodeError, zlib.error, ValueError, TypeError) as exc:
        metrics.UNREADABLE_RECORDS.labels(what).inc()
        log.warning("%s of game %s unreadable (%s: %s)", what, game_id, type(exc).__name__, exc)
        raise UnreadableRecord(game_id, what) from None


def _checkpoint(expected: int, record: Record) -> tuple[int | str, bytes | str]:
    """The checkpoint slot and value a commit from version `expected` to `record` writes
    (records.checkpoint_slot), or ('', '')."""
    slot = checkpoint_slot(expected, record.version)
    if slot is None:
        return "", ""
    return slot, msgspec.msgpack.encode(Checkpoint(record.version, record.state))


def _record(game_id: str, raw: bytes) -> Record:
    return _decoded(game_id, "record", lambda: record_decoder.decode(raw))


def _with_reissued(game_id: str, record: Record, raw: bytes | None) -> Record:
    """`record` with the token hashes of the seats whose token was reissued (field t)."""
    if raw is None:
        return record
    reissued = _decoded(game_id, "tokens", lambda: _reissued_decoder.decode(raw))
    hashes = list(record.token_hashes)
    for seat, digest in reissued.items():
        if 0 <= seat < len(hashes):
            hashes[seat] = bytes.fromhex(digest)
    return msgspec.structs.replace(record, token_hashes=hashes)


def _keys(game_id: str) -> tuple[str, str, str, str]:
    """The keys of one game: record, history, idempotency, checkpoints."""
    base = f"g:{{{game_id}}}"
    return base, f"{base}:h", f"{base}:i", f"{base}:c"


class RedisStore:
    def __init__(self, redis: Client, settings: Settings) -> None:
        self.replica_ack = settings.replica_ack
        timeout_ms = settings.replica_ack_timeout_ms
        if self.replica_ack < 0:
            raise ValueError("RULES_REPLICA_ACK is a number of replicas, 0 or more")
        if self.replica_ack and not 0 < timeout_ms < settings.redis_timeout * 1000:
            raise ValueError("RULES_REPLICA_ACK_TIMEOUT_MS must be above 0 and below REDIS_TIMEOUT")
        self._wait: Command = ("WAIT", self.replica_ack, timeout_ms)
        self.redis = redis
        self.settings = settings
        self.cluster = isinstance(redis, RedisCluster)
        self._publish = "SPUBLISH" if self.cluster else "PUBLISH"
        events = "" if self.replica_ack else _EVENTS.replace("$PUBLISH", self._publish)
        self._create = redis.register_script(_CREATE)
        self._commit = redis.register_script(_COMMIT_TEMPLATE.replace("$EVENTS", events))
        self._fold = redis.register_script(_FOLD)
        self._claim = redis.register_script(_CLAIM)
        self._reissue = redis.register_script(_REISSUE)
        # the hot path's own connections (service/store/direct.py); a cluster routes its own
        self.direct = (
            None
            if isinstance(redis, RedisCluster)
            else DirectConnections(
                redis.connection_pool, settings.redis_pool_size, settings.redis_timeout
            )
        )
        self.hub = EventHub(redis, settings.subscriber_queue, settings.redis_timeout)
        self._remap: asyncio.Task[bool] | None = None  # a cluster's map of slots, read again

    async def _timed(self, command: str, call: Callable[[], Awaitable[T]]) -> T:
        started = time.perf_counter()
        try:
            return await call()
        except (RedisError, RedisClusterException) as exc:
            # RedisClusterException: e.g. a slot no node serves in the map of slots, mid-failover
            metrics.STORE_ERRORS.labels(command).inc()
            if isinstance(exc, RedisConnectionError | RedisTimeout):
                self._follow_failover()
            raise StoreUnavailable(f"the game store is unavailable ({type(exc).__name__})") from exc
        finally:
            metrics.STORE_SECONDS.labels(command).observe(time.perf_counter() - started)

    def _follow_failover(self) -> None:
        """A node of a cluster did not answer: read the map of slots again, in the background
        and one read at a time, so the next requests reach the replica promoted in its place."""
        if not isinstance(self.redis, RedisCluster):
            return
        if self._remap is None or self._remap.done():
            self._remap = asyncio.get_running_loop().create_task(reread_slots(self.redis))

    async def _evalsha(self, script: AsyncScript, keys: Sequence[str], args: list[Any]) -> Any:
        return (await self._script(script, keys, args, ()))[0]

    async def _evalsha_acked(
        self, script: AsyncScript, keys: Sequence[str], args: list[Any]
    ) -> tuple[Any, int]:
        """The script's reply and how many replicas confirmed its writes (WAIT on the same
        connection, RULES_REPLICA_ACK); without the setting, the reply and 0."""
        if not self.replica_ack:
            return await self._evalsha(script, keys, args), 0
        reply, confirmed = await self._script(script, keys, args, (self._wait,))
        return reply, int(confirmed)

    def _confirmed(self, command: str, confirmed: int, message: str = "") -> None:
        """NotReplicated when fewer replicas than RULES_REPLICA_ACK confirmed a write."""
        if confirmed < self.replica_ack:
            metrics.REPLICA_ACK_MISSES.labels(command).inc()
            raise NotReplicated(self.replica_ack, confirmed, message)

    async def _script(
        self, script: AsyncScript, keys: Sequence[str], args: list[Any], then: tuple[Command, ...]
    ) -> list[Any]:
        """EVALSHA straight through execute_command (redis-py's Script wrapper costs ~7% of
        a move), with the commands `then` behind it on the same connection; a NOSCRIPT reply
        means nothing ran, so loading the script and asking again is safe."""
        command = ("EVALSHA", script.sha, len(keys), *keys, *args)
        try:
            return await self._execute([command, *then], keys[0])
        except NoScriptError:
            # Loaded the way the command went: after a restart, the pool's connections, idle
            # since the hot path bypasses them, may all be stale (each fails once).
            if self.direct is not None:
                await self._execute([("SCRIPT", "LOAD", script.script)], keys[0])
            else:
                await self.redis.script_load(script.script)
            return await self._execute([command, *then], keys[0])

    async def _execute(self, commands: list[Command], key: str) -> list[Any]:
        """The replies of `commands`, sent together on one connection to the server of `key`
        (on a cluster: the master of its slot, no redirect followed, so a WAIT behind a write
        always asks the server that made it; a node that does not answer has _timed read the
        map of slots again for the next call)."""
        if self.direct is not None:
            return await self.direct.execute(commands)
        redis = self.redis
        if len(commands) == 1:
            return [await redis.execute_command(*commands[0])]
        assert isinstance(redis, RedisCluster)

        async def send() -> list[Any]:
            node = redis.get_node_from_key(key)
            if node is None:
                raise ClusterDownError(f"no node serves the slot of {key}")
            async with redis.pipeline(transaction=False) as pipe:
                for command in commands:
                    pipe.execute_command(*command, target_nodes=node)
                replies: list[Any] = await pipe.execute(allow_redirections=False)
                return replies

        try:
            return await send()
        except MovedError:
            # The slot has moved (a failover) and this process had not heard: MOVED says
            # nothing ran there, so read the map of slots again and send once more.
            if not await reread_slots(redis):
                raise
            return await send()

    def ttl(self, finished: bool) -> int:
        return self.settings.finished_ttl if finished else self.settings.active_ttl

    def index_ttl(self) -> int:
        """An index key outlives every game it lists (service/store/indexes.py)."""
        return max(self.settings.finished_ttl, self.settings.active_ttl)

    async def ping(self) -> bool:
        """Redis answers; on a cluster, every master answers (one down leaves slots unserved)."""
        redis = self.redis

        async def every_master() -> Any:
            assert isinstance(redis, RedisCluster)
            return await redis.execute_command("PING", target_nodes=RedisCluster.PRIMARIES)

        try:
            if isinstance(redis, RedisCluster):
                return bool(await self._timed("ping", every_master))
            return bool(await self._timed("ping", redis.ping))
        except StoreUnavailable:
            return False

    async def create(
        self,
        game_id: str,
        record: Record,
        history: list[HistoryRecord],
        bot_due: int | None = None,
        events: Sequence[msgspec.Struct] = (),
    ) -> bool:
        """Store a new game; with `bot_due`, that bot seat's job at its version too (new ids
        come from jobs.new_game_id(), so the lane shares the game's slot); `events` go to the
        tenant's webhook outbox (service/webhooks/events.py)."""
        lane = self._lane(game_id, record.tenant)
        index_keys, flags = indexes.updates(game_id, record) if lane else ([], "")
        keys = [*_keys(game_id)[:2], *lane, *index_keys, *_outbox(game_id, record, lane, events)]
        args: list[bytes | int | str] = [
            record.version,
            msgspec.msgpack.encode(record),
            self.ttl(record.finished),
            game_id,
            "" if bot_due is None else bot_due,
            indexes.member(game_id, record),
            flags,
            self.index_ttl(),
            "" if record.deadline is None else repr(record.deadline),
            _events_encoder.encode(events) if events else "",
            FORMAT,
            *(msgspec.msgpack.encode(h) for h in history),
        ]
        created, confirmed = await self._timed(
            "create", lambda: self._evalsha_acked(self._create, keys, args)
        )
        if created and bot_due is not None and not lane:
            await self._enqueue_after(game_id, record.tenant, record.version, bot_due)
        if created:
            self._confirmed("create", confirmed)
        return bool(created)

    def queues_after_commit(self, game_id: str) -> bool:
        """Whether this game's bot jobs are appended after its commits instead of by them."""
        return self.cluster and not in_lane_slot(game_id)

    async def requeue(
        self, game_id: str, tenant: str, version: int, seat: int, every: float
    ) -> None:
        """Append the job (version, seat) again, at most once per `every` seconds per game."""
        marker = f"g:{{{game_id}}}:q"
        fresh = await self._timed(
            "requeue", lambda: self.redis.set(marker, version, nx=True, px=int(every * 1000))
        )
        if fresh:
            await self._enqueue_after(game_id, tenant, version, seat)

    def _lane(self, game_id: str, tenant: str) -> list[str]:
        """The tenant's job stream of the game's lane, as a script key, when the script may
        write it (same slot, or one server where slots do not matter); else nothing."""
        if self.queues_after_commit(game_id):
            return []
        return [job_key(lane_of(game_id), tenant)]

    async def load(
        self, game_id: str, idempotency: str | None = None
    ) -> tuple[Record | None, Done | None]:
        """The record (its reissued tokens in `token_hashes`) and, if asked, what an earlier
        move with that key left (one round trip)."""
        record_key, _, idem_key, _ = _keys(game_id)

        async def fetch() -> list[Any]:
            if self.direct is not None:
                commands: list[tuple[str, ...]] = [("HMGET", record_key, "r", "t")]
                if idempotency is not None:
                    commands.append(("HMGET", idem_key, idempotency, f"f:{idempotency}"))
                return await self.direct.execute(commands)
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hmget(record_key, ["r", "t"])
                if idempotency is not None:
                    pipe.hmget(idem_key, [idempotency, f"f:{idempotency}"])
                replies: list[Any] = await pipe.execute()
                return replies

        replies = await self._timed("load", fetch)
        raw, reissued = replies[0]
        record = None if raw is None else _record(game_id, raw)
        if record is not None:
            record = _with_reissued(game_id, record, reissued)
        if idempotency is None or replies[1][0] is None:
            return record, None
        version, fingerprint = replies[1]
        return record, _decoded(
            game_id,
            "idempotency",
            lambda: Done(int(version), fingerprint.decode() if fingerprint else None),
        )

    async def commit(
        self,
        game_id: str,
        expected: int,
        record: Record,
        history: list[HistoryRecord],
        idempotency: str | None,
        fingerprint: str = "",
        bot_due: int | None = None,
        events: Sequence[msgspec.Struct] = (),
    ) -> Committed:
        """The version-checked write; with `bot_due`, that bot seat's job at the new version;
        `events` go to the tenant's webhook outbox (service/webhooks/events.py). Raises
        UpgradeInProgress, writing nothing, when a newer release wrote the record last."""
        lane = self._lane(game_id, record.tenant)
        index_keys, flags = indexes.updates(game_id, record) if lane else ([], "")
        keys = [*_keys(game_id), *lane, *index_keys, *_outbox(game_id, record, lane, events)]
        args: list[bytes | int | str] = [
            expected,
            record.version,
            msgspec.msgpack.encode(record),
            idempotency or "",
            self.ttl(record.finished),
            game_id,
            record.status(),
            fingerprint,
            "" if bot_due is None else bot_due,
            indexes.member(game_id, record),
            flags,
            self.index_ttl(),
            "" if record.deadline is None else repr(record.deadline),
            _events_encoder.encode(events) if events else "",
            *_checkpoint(expected, record),
            FORMAT,
            *(msgspec.msgpack.encode(h) for h in history),
        ]
        reply, confirmed = await self._timed(
            "commit", lambda: self._evalsha_acked(self._commit, keys, args)
        )
        committed = Committed(reply[0].decode(), int(reply[1]))
        if committed.outcome == "new":
            metrics.NEWER_RELEASE.labels("commit").inc()
            raise UpgradeInProgress(game_id, f"record format {committed.version}, not {FORMAT}")
        if committed.outcome == "ok" and bot_due is not None and not lane:
            await self._enqueue_after(game_id, record.tenant, record.version, bot_due)
        if committed.outcome == "ok":
            self._confirmed("commit", confirmed)
            await self.announce(game_id, record.version, record.status())
        return committed

    async def announce(self, game_id: str, version: int, status: str) -> None:
        """With RULES_REPLICA_ACK, the event of a confirmed version (the commit script leaves
        it out): one event of the latest version, since a subscriber is given every version
        up to the one an event names (service/core/following.py). A write whose confirmation
        timed out is announced by its retry (`confirm_replicated`) or with the game's next
        version. Failing to publish fails nothing: the write stands, acknowledged; a
        subscriber catches up with the next event or when it resumes."""
        if not self.replica_ack:
            return
        channel = f"g:{{{game_id}}}:events"
        event = msgspec.json.encode({"gameId": game_id, "version": version, "status": status})
        try:
            await self._timed(
                "announce", lambda: self._execute([(self._publish, channel, event)], channel)
            )
        except StoreUnavailable as exc:
            log.warning("event of %s v%d not published (%s)", game_id, version, exc)

    async def confirm_replicated(self, game_id: str, version: int, status: str) -> None:
        """With RULES_REPLICA_ACK: return once enough replicas hold every write the game's
        master made so far (a replayed answer's move among them), else NotReplicated; then
        announce the game's `version` (the first try may have been refused unannounced). WAIT
        counts only its own connection's writes, so it follows a short-lived marker in the
        game's slot, written on that connection: a replica reaches it after all before it."""
        await self.confirm_marked("replicated", f"g:{{{game_id}}}:w", "")
        await self.announce(game_id, version, status)

    async def confirm_marked(self, command: str, marker: str, message: str) -> None:
        """With RULES_REPLICA_ACK: return once enough replicas hold every write made so far on
        the master of `marker`'s slot, which a short-lived marker written there and WAIT on
        its connection tell; else NotReplicated with `message` ("": a move's)."""
        if not self.replica_ack:
            return
        commands: list[Command] = [("SET", marker, 1, "PX", MARKER_MS), self._wait]
        _, confirmed = await self._timed(command, lambda: self._execute(commands, marker))
        self._confirmed(command, int(confirmed), message)

    async def script_acked(
        self, command: str, script: AsyncScript, keys: Sequence[str], args: list[Any], marker: str
    ) -> Any:
        """The reply of another layer's script (a webhook endpoint's change), acknowledged like
        a move: with RULES_REPLICA_ACK a marker in the script's slot (`marker`) and WAIT
        follow it on its connection, and fewer confirmations raise NotReplicated whatever it
        answered: an answer that wrote nothing ("no such endpoint") may rest on an earlier
        write of another connection, which the marker's confirmation covers too."""
        if not self.replica_ack:
            return await self._timed(command, lambda: self._evalsha(script, keys, args))
        then: tuple[Command, ...] = (("SET", marker, 1, "PX", MARKER_MS), self._wait)
        reply, _, confirmed = await self._timed(
            command, lambda: self._script(script, keys, args, then)
        )
        self._confirmed(command, int(confirmed), CHANGE_NOT_REPLICATED)
        return reply

    async def write_each_acked(
        self, command: str, writes: Sequence[Command], acknowledged: bool = True
    ) -> None:
        """Single-key writes of another layer (a tenant's webhook switch in every lane), each
        server's share on one connection with WAIT behind it when RULES_REPLICA_ACK asks and
        `acknowledged` (on a cluster: the master of each key's slot, the servers at once);
        NotReplicated if any server's replicas confirm fewer."""
        redis = self.redis
        if not (self.replica_ack and acknowledged):

            async def pipelined() -> None:
                async with redis.pipeline(transaction=False) as pipe:
                    for write in writes:
                        pipe.execute_command(*write)
                    await pipe.execute()

            await self._timed(command, pipelined)
            return

        async def acked(share: list[Command]) -> int:
            replies = await self._execute([*share, self._wait], share[0][1])
            return int(replies[-1])

        async def every_server() -> list[int]:
            shares: dict[str, list[Command]] = {}
            for write in writes:
                node = (
                    redis.get_node_from_key(write[1]) if isinstance(redis, RedisCluster) else None
                )
                shares.setdefault("" if node is None else node.name, []).append(write)
            return list(await asyncio.gather(*(acked(share) for share in shares.values())))

        confirmed = await self._timed(command, every_server)
        self._confirmed(command, min(confirmed, default=self.replica_ack), CHANGE_NOT_REPLICATED)

    async def _enqueue_after(self, game_id: str, tenant: str, version: int, seat: int) -> None:
        """A game from before the lanes, on a cluster: its slot holds no lane, so the job is
        appended right after the commit. Not atomic with it: if this process dies in between,
        the next read of the game after the reclaim timeout queues it again (GameService.read)."""
        key = job_key(lane_of(game_id), tenant)
        fields: dict[Any, Any] = {"g": game_id, "v": version, "s": seat}

        async def append() -> None:
            await self.redis.xadd(key, fields)
            await self.redis.publish(WAKE, key)

        await self._timed("enqueue", append)

    async def listed(
        self, reads: list[tuple[str, str | None]], floor: str | None, count: int
    ) -> list[list[str]]:
        """Per (index key, below) of `reads`, up to `count` members of the key newest first:
        below `below` (exclusive; None: from the newest) and from `floor` on. One pipelined
        ZRANGE per key."""
        bottom = f"[{floor}" if floor else "-"

        async def fetch() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                for key, below in reads:
                    top = f"({below}" if below else "+"
                    pipe.zrange(key, top, bottom, desc=True, bylex=True, offset=0, num=count)
                replies: list[Any] = await pipe.execute()
                return replies

        replies = await self._timed("index", fetch)
        return [[m.decode() for m in members] for members in replies]

    async def first_deadlines(self, tenants: list[str]) -> dict[tuple[int, str], float]:
        """The earliest deadline of each clock set of `tenants` that holds one, by (lane,
        tenant). A sorted set is gone once empty, so one EXISTS per lane over its sets (they
        share its slot) says which lanes hold clocks at all, all lanes pipelined; then one
        ZRANGE per set of those lanes. An idle sweeper's look does not grow with the
        tenants."""
        lanes = range(LANES)

        async def fetch() -> dict[tuple[int, str], float]:
            async with self.redis.pipeline(transaction=False) as pipe:
                for lane in lanes:
                    pipe.execute_command(
                        "EXISTS", *(indexes.clock_key(lane, tenant) for tenant in tenants)
                    )
                counts: list[int] = await pipe.execute()
            sets = [
                (lane, t)
                for lane, count in zip(lanes, counts, strict=True)
                if count
                for t in tenants
            ]
            if not sets:
                return {}
            async with self.redis.pipeline(transaction=False) as pipe:
                for lane, tenant in sets:
                    pipe.zrange(indexes.clock_key(lane, tenant), 0, 0, withscores=True)
                replies: list[Any] = await pipe.execute()
            return {s: float(first[0][1]) for s, first in zip(sets, replies, strict=True) if first}

        return await self._timed("clocks", fetch)

    async def claim_deadlines(
        self, lane: int, tenant: str, now: float, lease: float, count: int
    ) -> tuple[list[tuple[float, str]], float | None]:
        """Up to `count` games of `tenant` in `lane` whose clock ran out by `now` (tenant "":
        the lane's own set, earlier releases' entries), earliest deadline first,
        as (deadline, game id), claimed: their score is pushed `lease` seconds on in the same
        script, so another sweeper skips them until then (and takes them over if this one
        dies); the timeout's commit sets or removes it. With them, when the set's next clock
        is due after the claim (None: no clock in it)."""
        keys = [indexes.clock_key(lane, tenant)]
        args = [repr(now), repr(now + lease), count]
        claimed, first = await self._timed("claim", lambda: self._evalsha(self._claim, keys, args))
        games = [
            (float(deadline), game_id.decode())
            for game_id, deadline in zip(claimed[::2], claimed[1::2], strict=True)
        ]
        return games, None if first is None else float(first)

    async def unclock(self, lane: int, tenant: str, game_id: str) -> None:
        """The deadline of a game that no longer exists (or was set aside), removed from the
        set of `tenant` in `lane`."""
        key = indexes.clock_key(lane, tenant)
        await self._timed("unclock", lambda: self.redis.zrem(key, game_id))

    async def reclock(self, game_id: str, tenant: str, deadline: float) -> None:
        """A game's deadline back among its tenant's clocks in its lane (a game retried from
        quarantine)."""
        key = indexes.clock_key(lane_of(game_id), tenant)
        await self._timed("reclock", lambda: self.redis.zadd(key, {game_id: deadline}))

    async def records(self, game_ids: list[str]) -> list[Record | UnreadableRecord | None]:
        """The records of `game_ids` (None for a game that expired, the refusal for one that
        cannot be read), pipelined; their token hashes as created (no reissued ones: `load`
        is the read that authorizes)."""
        if not game_ids:
            return []

        async def fetch() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                for game_id in game_ids:
                    pipe.hget(_keys(game_id)[0], "r")
                replies: list[Any] = await pipe.execute()
                return replies

        replies = await self._timed("records", fetch)
        found: list[Record | UnreadableRecord | None] = []
        for game_id, raw in zip(game_ids, replies, strict=True):
            try:
                found.append(None if raw is None else _record(game_id, raw))
            except UnreadableRecord as unreadable:
                found.append(unreadable)
        return found

    async def unlist(self, entries: list[tuple[str, str]]) -> None:
        """Index members of games that expired, removed (each key on its own: a member's key is
        in its game's slot, and nothing else in that slot must change with it)."""
        for member, key in entries:

            async def remove(key: str = key, member: str = member) -> None:
                await self.redis.zrem(key, member)

            await self._timed("unlist", remove)

    async def history(
        self, game_id: str, after: int = 0, until: int | None = None
    ) -> list[HistoryRecord]:
        """Entries of versions after `after` up to `until` (inclusive; None: the latest);
        the labels of a folded history may be "" (see read_history)."""
        entries, _ = await self.read_history(game_id, after, until)
        return entries

    async def read_history(
        self, game_id: str, after: int = 0, until: int | None = None
    ) -> tuple[list[HistoryRecord], bytes | None]:
        """Entries of versions after `after` up to `until` (inclusive; None: the latest), and
        None if they carry their labels, else the digest of the labels left to the engine
        (a folded history: service/core/folding.py)."""
        record_key, history_key, _, _ = _keys(game_id)
        last = -1 if until is None else until - 1

        # The list first: `fold` writes the folded value and drops the list in one step, so
        # an empty list read before the folded value never misses a history.
        async def fetch() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.lrange(history_key, after, last)
                pipe.hget(record_key, "h")
                replies: list[Any] = await pipe.execute()
                return replies

        raw, folded = await self._timed("history", fetch)
        if raw or folded is None:
            return _decoded(
                game_id, "history", lambda: [history_decoder.decode(i) for i in raw]
            ), None
        entries, digest = _decoded(game_id, "history", lambda: unfold(folded))
        newest = entries[-1].version if entries else 0
        until = newest if until is None else until
        return [e for e in entries if after < e.version <= until], digest

    async def checkpoints(self, game_id: str) -> list[Checkpoint]:
        """Every checkpoint of a game whose history is not folded yet, oldest first."""
        key = _keys(game_id)[3]
        raw: list[Any] = await self._timed("checkpoints", lambda: self.redis.hvals(key))
        found = _decoded(game_id, "checkpoint", lambda: [checkpoint_decoder.decode(c) for c in raw])
        return sorted(found, key=lambda checkpoint: checkpoint.version)

    async def checkpoint(self, game_id: str, version: int) -> Checkpoint | None:
        """The latest checkpoint at or below `version` (None: replay from the seed), in one
        round trip: the slot of `version` or the one before, or the folded checkpoints of a
        finished game."""
        record_key, _, _, checkpoints_key = _keys(game_id)
        slot = version // CHECKPOINT_EVERY

        async def fetch() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hmget(checkpoints_key, [slot, slot - 1])
                pipe.hget(record_key, "c")
                replies: list[Any] = await pipe.execute()
                return replies

        (here, before), folded = await self._timed("checkpoint", fetch)

        def decode() -> list[Checkpoint]:
            if folded is not None:
                return unfold_checkpoints(folded)
            return [checkpoint_decoder.decode(raw) for raw in (before, here) if raw is not None]

        usable = [c for c in _decoded(game_id, "checkpoint", decode) if c.version <= version]
        return max(usable, key=lambda checkpoint: checkpoint.version, default=None)

    async def fold(
        self, game_id: str, version: int, folded: bytes, checkpoints: bytes = b""
    ) -> bool:
        """Fold a finished game's history (records.fold of every entry up to `version`) and
        its checkpoints (records.fold_checkpoints, read before) into its record and let its
        idempotency entries go after the grace; False if the game is not at that version, its
        history was folded already, or a newer release wrote it."""
        keys = _keys(game_id)
        args: list[bytes | int | str] = [
            version,
            folded,
            self.settings.idempotency_grace,
            checkpoints,
            FORMAT,
        ]
        done = await self._timed("fold", lambda: self._evalsha(self._fold, keys, args))
        return bool(done)

    async def reissue(self, game_id: str, seat: int, token_hash: bytes) -> bool:
        """The seat's token is now the one hashing to `token_hash` (the record's own and any
        earlier reissued one stop working with the next load); False if the game is gone.
        With RULES_REPLICA_ACK, NotReplicated until replicas confirm it (a failover must not
        bring back a token the tenant replaced: a retry reissues again, the last one counts)."""
        keys, args = [_keys(game_id)[0]], [seat, token_hash.hex()]
        done, confirmed = await self._timed(
            "reissue", lambda: self._evalsha_acked(self._reissue, keys, args)
        )
        if done:
            self._confirmed("reissue", confirmed, CHANGE_NOT_REPLICATED)
        return bool(done)

    def events(
        self, game_id: str, on_drop: Callable[[], None] = lambda: None
    ) -> AbstractAsyncContextManager[Subscriber]:
        """A subscriber of one game's events (service/store/events.py); `on_drop` runs if it
        falls too far behind."""
        return self.hub.subscribe(game_id, on_drop)

    async def close(self) -> None:
        if self._remap is not None:
            self._remap.cancel()
            await asyncio.gather(self._remap, return_exceptions=True)
        await self.hub.close()
        if self.direct is not None:
            await self.direct.close()
        await self.redis.aclose()
