"""The deliverer's Lua scripts (service/webhooks/deliverer.py): each runs in one tenant's slot,
so each step of fan-out, claim and settlement is atomic on one server and on a cluster."""

# KEYS: message, events, then (queue, due) per endpoint. ARGV: body, retention, now, game,
# message id, type, the oldest events entry kept (ms). Listed in events once, when stored.
FAN_OUT = """
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then return 0 end
redis.call('XADD', KEYS[2], 'MINID', '~', ARGV[7], '*', 'm', ARGV[5], 't', ARGV[6])
redis.call('EXPIRE', KEYS[2], ARGV[2])
for i = 3, #KEYS, 2 do
  redis.call('RPUSH', KEYS[i], ARGV[5])
  redis.call('EXPIRE', KEYS[i], ARGV[2])
  redis.call('ZADD', KEYS[i + 1], 'NX', ARGV[3], ARGV[4])
end
return 1
"""

# KEYS: due, retry, drained. ARGV: now, lease end, count. The due games, claimed until the
# lease ends, each with when its retry was due if a drain pulled it forward ('' otherwise).
CLAIM = """
local due = redis.call('ZRANGE', KEYS[1], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, ARGV[3])
local claimed = {}
for _, game in ipairs(due) do
  redis.call('ZADD', KEYS[1], ARGV[2], game)
  redis.call('ZREM', KEYS[2], game)
  local scheduled = redis.call('HGET', KEYS[3], game)
  if scheduled then redis.call('HDEL', KEYS[3], game) else scheduled = '' end
  table.insert(claimed, game)
  table.insert(claimed, scheduled)
end
return claimed
"""

# KEYS: queue, due, tries, log, failed, failing, endpoints, retry, drained. ARGV: message,
# game, outcome, next try, log entry, now, endpoint id, log length, failed length, retention,
# counted (1: the attempt uses up a pause; 0: a drained one), when a drain may pull this game
# again, drain batch. A delivery drains: the games waiting for a retry are due now (or, tried
# less than a first pause ago, then).
SETTLE = """
if redis.call('HEXISTS', KEYS[7], ARGV[7]) == 0 then
  redis.call('DEL', KEYS[1])
  return 0
end
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then return 0 end
redis.call('LPUSH', KEYS[4], ARGV[5])
redis.call('LTRIM', KEYS[4], 0, tonumber(ARGV[8]) - 1)
if ARGV[3] == 'RETRYING' then
  if ARGV[11] == '1' then redis.call('HINCRBY', KEYS[3], ARGV[2], 1) end
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[2])
  redis.call('ZADD', KEYS[8], ARGV[12], ARGV[2])
  redis.call('HSETNX', KEYS[6], ARGV[7], ARGV[6])
  return 1
end
redis.call('LPOP', KEYS[1])
redis.call('HDEL', KEYS[3], ARGV[2])
if ARGV[3] == 'FAILED' then
  redis.call('ZADD', KEYS[5], ARGV[6], ARGV[1])
  redis.call('ZREMRANGEBYRANK', KEYS[5], 0, -tonumber(ARGV[9]) - 1)
  redis.call('EXPIRE', KEYS[5], ARGV[10])
  redis.call('HSETNX', KEYS[6], ARGV[7], ARGV[6])
elseif ARGV[3] == 'DELIVERED' then
  local waiting = redis.call('ZRANGE', KEYS[8], 0, tonumber(ARGV[13]) - 1, 'WITHSCORES')
  for i = 1, #waiting, 2 do
    local other, at = waiting[i], waiting[i + 1]
    if tonumber(at) < tonumber(ARGV[6]) then at = ARGV[6] end
    local scheduled = redis.call('ZSCORE', KEYS[2], other)
    if scheduled and tonumber(at) < tonumber(scheduled) then
      redis.call('HSET', KEYS[9], other, scheduled)
      redis.call('ZADD', KEYS[2], at, other)
    end
    redis.call('ZREM', KEYS[8], other)
  end
  if redis.call('HLEN', KEYS[3]) == 0 then redis.call('HDEL', KEYS[6], ARGV[7]) end
end
if redis.call('LLEN', KEYS[1]) > 0 then
  redis.call('ZADD', KEYS[2], ARGV[6], ARGV[2])
else
  redis.call('ZREM', KEYS[2], ARGV[2])
end
return 1
"""

# KEYS: queue, due, tries, retry, drained. ARGV: game. A due member whose queue is empty
# (expired) is dropped, with its retry state.
TIDY = """
if redis.call('LLEN', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('HDEL', KEYS[3], ARGV[1])
  redis.call('ZREM', KEYS[4], ARGV[1])
  redis.call('HDEL', KEYS[5], ARGV[1])
end
return 0
"""
