"""The Lua scripts of the game store (service/store/redis_store.py): a game's creation, its
commit, the fold of a finished game's history and a reissued token, and the keys and values a
commit adds for the webhook outbox and the checkpoints. Each script runs atomically on the
server that owns the game's slot; its keys and arguments are listed above it.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from service.store.jobs import WAKE, lane_of
from service.store.outbox import OUTBOX_MAX, enabled_key, outbox_key
from service.store.records import Checkpoint, Record, checkpoint_slot

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
CREATE = (
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
# ('' for none), checkpoint, record format, SHA-1 of the stored record the commit was computed
# from ('' for none: the version alone; a seat change makes no version), history entries... A
# record whose stored format is newer than ARGV[17] is not written ('new'): this release would
# drop what it does not know.
COMMIT_TEMPLATE = (
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
if ARGV[18] ~= '' and redis.sha1hex(redis.call('HGET', KEYS[1], 'r') or '') ~= ARGV[18] then
  return {'stale', tonumber(current)}
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'r', ARGV[3], 'w', ARGV[17])
redis.call('RPUSH', KEYS[2], unpack(ARGV, 19))
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
EVENTS = """
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
FOLD = """
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
REISSUE = """
if redis.call('HEXISTS', KEYS[1], 'v') == 0 then return 0 end
local raw = redis.call('HGET', KEYS[1], 't')
local reissued = {}
if raw then reissued = cjson.decode(raw) end
reissued[ARGV[1]] = ARGV[2]
redis.call('HSET', KEYS[1], 't', cjson.encode(reissued))
return 1
"""


def outbox_keys(
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


def checkpoint_args(expected: int, record: Record) -> tuple[int | str, bytes | str]:
    """The checkpoint slot and value a commit from version `expected` to `record` writes
    (records.checkpoint_slot), or ('', '')."""
    slot = checkpoint_slot(expected, record.version)
    if slot is None:
        return "", ""
    return slot, msgspec.msgpack.encode(Checkpoint(record.version, record.state))
