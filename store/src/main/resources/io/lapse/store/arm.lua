-- Applies a batch of statuses to one shard in one round trip.
-- KEYS[1] due:   sorted set, orderId -> the moment the order next needs attention (ms)
-- KEYS[2] state: hash, orderId -> 'T' (finished) or 'phase|lastSeen|attempt|deadline|source', only for orders that
--                were fired, leased, recovered or ended; an order without an entry is armed with lastSeen = score - ttl
-- KEYS[3] ended: sorted set, orderId -> when it ended or was given up, so that marks can be pruned after retention
-- ARGV[1] ttl ms, ARGV[2] wake channel, ARGV[3] shard, then per order: orderId, event time ms, kind
--         kind: 'a' active status, 't' terminal status, 'g' upstream does not know the order
-- Returns {armed, ended, ignored}.
local due, state, ended = KEYS[1], KEYS[2], KEYS[3]
keep_hash_table(state)
local ttl = tonumber(ARGV[1])
local first = 4
local n = (#ARGV - first + 1) / 3
if n < 1 then
  return {0, 0, 0}
end

local ids = {}
for i = 1, n do
  ids[i] = ARGV[first + (i - 1) * 3]
end
local states = redis.call('HMGET', state, unpack(ids))
local head = redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')
local now = now_ms()

local function last_seen(st, id)
  if st then
    return tonumber(string.match(st, '^%a|(%d+)|'))
  end
  local score = redis.call('ZSCORE', due, id)
  if score then
    return tonumber(score) - ttl
  end
  return nil
end

local raise = {}
local armed, finished, ignored = 0, 0, 0
for i = 1, n do
  local id = ids[i]
  local ts = tonumber(ARGV[first + (i - 1) * 3 + 1])
  local kind = ARGV[first + (i - 1) * 3 + 2]
  local st = states[i]
  if kind == 't' then
    redis.call('ZREM', due, id)
    redis.call('HSET', state, id, 'T')
    redis.call('ZADD', ended, fmt(now), id)
    finished = finished + 1
  elseif st == 'T' then
    ignored = ignored + 1
  elseif kind == 'g' then
    local seen = last_seen(st, id)
    if seen and ts >= seen then
      redis.call('ZREM', due, id)
      redis.call('HDEL', state, id)
      redis.call('ZREM', ended, id)
      finished = finished + 1
    else
      ignored = ignored + 1
    end
  elseif not st then
    -- the common case: GT keeps the later of the two deadlines, so duplicates and stragglers change nothing
    raise[#raise + 1] = fmt(ts + ttl)
    raise[#raise + 1] = id
    armed = armed + 1
  elseif ts > tonumber(string.match(st, '^%a|(%d+)|')) then
    -- a newer status than the one the expiries counted from: the attempt count starts again
    redis.call('HDEL', state, id)
    redis.call('ZREM', ended, id)
    redis.call('ZADD', due, fmt(ts + ttl), id)
    armed = armed + 1
  else
    ignored = ignored + 1
  end
end

local chunk = 6000
for i = 1, #raise, chunk do
  redis.call('ZADD', due, 'GT', unpack(raise, i, math.min(i + chunk - 1, #raise)))
end

-- wake the timer when this batch put a deadline before the one it sleeps towards
local new_head = redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')
if new_head[2] and (not head[2] or tonumber(new_head[2]) < tonumber(head[2])) then
  redis.call('PUBLISH', ARGV[2], ARGV[3])
end
return {armed, finished, ignored}
