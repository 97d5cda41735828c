"""The Lua scripts of matchmaking (service/store/lobby.py). Each runs atomically on the server
that owns the tenant's matchmaking slot: every key a script names, and every key it builds from
ARGV[1] (the prefix `mm:{mm-<tenant>}:`), shares that hash tag. Keys built inside a script
are of the declared keys' slot, which Redis Cluster serves from the same node.

A seeker's window is `base + growth * waited seconds`, capped; two seekers fit when their
ratings differ by at most the narrower of their windows. A pool's seekers are tried oldest
first (FIFO by entered-at, ties by player id), and a group takes the oldest seekers that fit
every seeker already in it.
"""

from __future__ import annotations

MATCH_GROUP = "lobby"  # the consumer group of a tenant's stream of matches made

# try_group(prefix, q, r, seeker, seats, now, base, growth, cap, near): the group of `seats`
# seekers the seeker heads, or nil. `near` bounds the candidates read on each side of its
# rating (the nearest ones), so one attempt costs the same in a pool of any size.
_MATCHING = """
local function window(waited, base, growth, cap)
  local w = base + growth * waited / 1000
  if w > cap then return cap end
  return w
end

local function num(x) return string.format('%.17g', x) end

local function try_group(q, r, seeker, seats, now, base, growth, cap, near)
  local at = redis.call('ZSCORE', q, seeker)
  if not at then return nil end
  at = tonumber(at)
  local rating = tonumber(redis.call('ZSCORE', r, seeker))
  local w = window(now - at, base, growth, cap)
  local above = redis.call('ZRANGE', r, num(rating), num(rating + w), 'BYSCORE', 'LIMIT', 0,
    near + 1, 'WITHSCORES')
  local below = redis.call('ZRANGE', r, '(' .. num(rating), num(rating - w), 'BYSCORE', 'REV',
    'LIMIT', 0, near, 'WITHSCORES')
  local names, ratings = {}, {}
  for _, side in ipairs({above, below}) do
    for i = 1, #side, 2 do
      if side[i] ~= seeker then
        names[#names + 1] = side[i]
        ratings[side[i]] = tonumber(side[i + 1])
      end
    end
  end
  if #names < seats - 1 then return nil end
  local ats = redis.call('ZMSCORE', q, unpack(names))
  local fits = {}
  for i, name in ipairs(names) do
    local their = tonumber(ats[i])
    if their then
      local wc = window(now - their, base, growth, cap)
      if math.abs(ratings[name] - rating) <= math.min(w, wc) then
        fits[#fits + 1] = {name, their, ratings[name], wc}
      end
    end
  end
  table.sort(fits, function(a, b)
    if a[2] ~= b[2] then return a[2] < b[2] end
    return a[1] < b[1]
  end)
  local group = {{seeker, at, rating, w}}
  for _, c in ipairs(fits) do
    local ok = true
    for _, g in ipairs(group) do
      if math.abs(c[3] - g[3]) > math.min(c[4], g[4]) then ok = false break end
    end
    if ok then group[#group + 1] = c end
    if #group == seats then return group end
  end
  return nil
end

-- The group leaves the pool for a match record and an entry of the tenant's stream of matches,
-- read at once into `consumer`'s pending list: the maker creates the game and acknowledges,
-- and if it dies, a worker claims the entry (XAUTOCLAIM) and creates it.
local function make_match(prefix, q, r, pool, pool_json, group, match, now, consumer, kept)
  local players = {}
  for i, g in ipairs(group) do
    redis.call('ZREM', q, g[1])
    redis.call('ZREM', r, g[1])
    local key = prefix .. 'p:' .. g[1]
    redis.call('DEL', key)
    redis.call('HSET', key, 's', 'C', 'match', match)
    redis.call('EXPIRE', key, kept)
    players[i] = {g[1], g[3], g[2]}
  end
  if redis.call('ZCARD', q) == 0 then redis.call('SREM', prefix .. 'pools', pool) end
  local record = prefix .. 'm:' .. match
  local encoded = cjson.encode(players)
  redis.call('HSET', record, 'pool', pool_json, 'players', encoded, 'at', now)
  redis.call('EXPIRE', record, kept)
  local made = prefix .. 'made'
  redis.pcall('XGROUP', 'CREATE', made, '$GROUP', '0', 'MKSTREAM')
  local entry = redis.call('XADD', made, '*', 'm', match)
  redis.call('XREADGROUP', 'GROUP', '$GROUP', consumer, 'COUNT', 1, 'STREAMS', made, '>')
  return {match, entry, encoded, pool_json}
end
""".replace("$GROUP", MATCH_GROUP)

# KEYS: the player's key, the pool's queue (player -> entered ms), its ratings (player ->
# rating), its description, the tenant's set of pools with seekers. ARGV: prefix, pool id,
# pool JSON, player, rating, now ms, base, growth per s, cap, near, seats, match id, consumer,
# seconds a seek or a match is kept. Answers {'waiting', entered ms} (already waiting in this
# pool: the same seek), {'queued', pool} (waiting in another pool), {'matching', match},
# {'entered', now} or {'matched', match, entry, players JSON, pool JSON}.
ENTER = (
    _MATCHING
    + """
local prefix, now = ARGV[1], tonumber(ARGV[6])
local status = redis.call('HMGET', KEYS[1], 's', 'pool', 'at', 'match')
if status[1] == 'W' then
  if status[2] == ARGV[2] then return {'waiting', tonumber(status[3])} end
  return {'queued', status[2]}
end
if status[1] == 'C' then return {'matching', status[4]} end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 's', 'W', 'pool', ARGV[2], 'at', ARGV[6], 'rating', ARGV[5])
redis.call('EXPIRE', KEYS[1], ARGV[14])
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[4])
redis.call('SET', KEYS[4], ARGV[3], 'EX', ARGV[14])
redis.call('SADD', KEYS[5], ARGV[2])
for i = 2, 5 do redis.call('EXPIRE', KEYS[i], ARGV[14]) end
local group = try_group(KEYS[2], KEYS[3], ARGV[4], tonumber(ARGV[11]), now, tonumber(ARGV[7]),
  tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]))
if not group then return {'entered', now} end
local made = make_match(prefix, KEYS[2], KEYS[3], ARGV[2], ARGV[3], group, ARGV[12], now,
  ARGV[13], ARGV[14])
return {'matched', made[1], made[2], made[3], made[4]}
"""
)

# KEYS: the player's key. ARGV: prefix. Answers {'left'}, or {'not', status} when the player
# waits in no pool ('' none, 'C' a match being made, 'M' matched).
LEAVE = """
local prefix = ARGV[1]
local status = redis.call('HMGET', KEYS[1], 's', 'pool')
if status[1] ~= 'W' then return {'not', status[1] or ''} end
local q, r = prefix .. 'q:' .. status[2], prefix .. 'r:' .. status[2]
local player = string.sub(KEYS[1], #prefix + 3)
redis.call('ZREM', q, player)
redis.call('ZREM', r, player)
redis.call('DEL', KEYS[1])
if redis.call('ZCARD', q) == 0 then redis.call('SREM', prefix .. 'pools', status[2]) end
return {'left'}
"""

# KEYS: the pool's queue, ratings, description, the tenant's set of pools. ARGV: prefix, pool
# id, now ms, base, growth, cap, near, first rank, how many seekers, match id stem, consumer,
# seconds kept, the longest wait in ms. Seekers who waited longer than that leave first (their
# seek lapses). Then each of the seekers at ranks [first, first + how many) heads a group if
# one fits. Answers {next rank or -1 at the end, match...} with each match as make_match's
# four values.
SWEEP = (
    _MATCHING
    + """
local prefix, now = ARGV[1], tonumber(ARGV[3])
local pool_json = redis.call('GET', KEYS[3])
if not pool_json then
  redis.call('SREM', KEYS[4], ARGV[2])
  return {-1}
end
local seats = cjson.decode(pool_json)['players']
local lapsed = redis.call('ZRANGE', KEYS[1], '-inf', now - tonumber(ARGV[13]), 'BYSCORE')
for _, player in ipairs(lapsed) do
  redis.call('ZREM', KEYS[1], player)
  redis.call('ZREM', KEYS[2], player)
  local key = prefix .. 'p:' .. player
  local status = redis.call('HMGET', key, 's', 'pool')
  if status[1] == 'W' and status[2] == ARGV[2] then redis.call('DEL', key) end
end
local first, count = tonumber(ARGV[8]), tonumber(ARGV[9])
local seekers = redis.call('ZRANGE', KEYS[1], first, first + count - 1)
local answer = {0}
local made = 0
for _, seeker in ipairs(seekers) do
  local group = try_group(KEYS[1], KEYS[2], seeker, seats, now, tonumber(ARGV[4]),
    tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]))
  if group then
    made = made + 1
    local match = make_match(prefix, KEYS[1], KEYS[2], ARGV[2], pool_json, group,
      ARGV[10] .. '-' .. made, now, ARGV[11], ARGV[12])
    for _, value in ipairs(match) do answer[#answer + 1] = value end
  end
end
local still = 0
for _, seeker in ipairs(seekers) do
  if redis.call('ZSCORE', KEYS[1], seeker) then still = still + 1 end
end
if #seekers < count then answer[1] = -1 else answer[1] = first + still end
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('SREM', KEYS[4], ARGV[2]) end
return answer
"""
)

# KEYS: the tenant's stream of matches, the match record. ARGV: prefix, match id, entry id,
# consumer, game id, seconds kept, the publish command, then per player: player id, seat,
# token, event JSON. Only the consumer that holds the entry settles it (another may have
# claimed it since): each player's key says MATCHED with the game, seat and token, the player's
# channel gets the event, the entry is acknowledged and deleted and the record goes. 0 when
# the entry is no longer this consumer's.
SETTLE = """
local prefix = ARGV[1]
local held = redis.call('XPENDING', KEYS[1], '$GROUP', ARGV[3], ARGV[3], 1)
if #held == 0 or held[1][2] ~= ARGV[4] then return 0 end
for i = 8, #ARGV, 4 do
  local key = prefix .. 'p:' .. ARGV[i]
  if redis.call('HGET', key, 'match') == ARGV[2] then
    redis.call('DEL', key)
    redis.call('HSET', key, 's', 'M', 'match', ARGV[2], 'game', ARGV[5], 'seat', ARGV[i + 1],
      'token', ARGV[i + 2])
    redis.call('EXPIRE', key, ARGV[6])
  end
  redis.call(ARGV[7], prefix .. 'e:' .. ARGV[i], ARGV[i + 3])
end
redis.call('XACK', KEYS[1], '$GROUP', ARGV[3])
redis.call('XDEL', KEYS[1], ARGV[3])
redis.call('DEL', KEYS[2])
return 1
""".replace("$GROUP", MATCH_GROUP)
