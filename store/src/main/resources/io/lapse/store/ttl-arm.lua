-- timer.mode=ttl: applies a batch of statuses to one shard as keys with a TTL, which Redis deletes (and announces
-- with a keyspace notification) some time after they expire. The state hash (see arm.lua) holds every watched order
-- here, because a key's value is gone by the time its notification arrives:
-- 'W|lastSeen|0|deadline|source' armed, 'A|lastSeen|attempt|next deadline|source' fired, 'L|…' leased.
-- KEYS[1] state, KEYS[2] ended; ARGV[1] ttl ms, ARGV[2] trigger key prefix of this shard,
-- then per order: orderId, event time ms, kind ('a', 't', 'g' as in arm.lua)
-- Returns {armed, ended, ignored}.
local state, ended = KEYS[1], KEYS[2]
keep_hash_table(state)
local ttl, trigger = tonumber(ARGV[1]), ARGV[2]
local first = 3
local n = (#ARGV - first + 1) / 3
if n < 1 then
  return {0, 0, 0}
end
local ids = {}
for i = 1, n do
  ids[i] = ARGV[first + (i - 1) * 3]
end
local states = redis.call('HMGET', state, unpack(ids))
local now = now_ms()

local function seen_of(st)
  return tonumber(string.match(st, '^%a|(%d+)|'))
end

local function arm(id, ts)
  redis.call('HSET', state, id, 'W|' .. fmt(ts) .. '|0|' .. fmt(ts + ttl) .. '|t')
  -- a deadline already past would delete the key without any notification: expire it a moment from now instead
  redis.call('SET', trigger .. id, '1', 'PXAT', fmt(math.max(ts + ttl, now + 1)))
end

local armed, finished, ignored = 0, 0, 0
for i = 1, n do
  local id = ids[i]
  local ts = tonumber(ARGV[first + (i - 1) * 3 + 1])
  local kind = ARGV[first + (i - 1) * 3 + 2]
  local st = states[i]
  if kind == 't' then
    redis.call('DEL', trigger .. id)
    redis.call('HSET', state, id, 'T')
    redis.call('ZADD', ended, fmt(now), id)
    finished = finished + 1
  elseif st == 'T' then
    ignored = ignored + 1
  elseif kind == 'g' then
    if st and ts >= seen_of(st) then
      redis.call('DEL', trigger .. id)
      redis.call('HDEL', state, id)
      redis.call('ZREM', ended, id)
      finished = finished + 1
    else
      ignored = ignored + 1
    end
  elseif not st or ts > seen_of(st) then
    if st then
      redis.call('ZREM', ended, id)
    end
    arm(id, ts)
    armed = armed + 1
  else
    ignored = ignored + 1
  end
end
return {armed, finished, ignored}
