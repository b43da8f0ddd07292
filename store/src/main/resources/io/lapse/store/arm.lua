-- Applies a batch of statuses to one shard in one round trip: the status rules, for both timer modes.
-- KEYS[1] due:   zset mode: sorted set, orderId -> the moment the order next needs attention (ms);
--                ttl mode: the orders whose trigger key Redis announced as expired, waiting for a claim
-- KEYS[2] state: hash, orderId -> an entry of prelude.lua's layout. zset mode keeps one only for orders that were
--                fired, leased, recovered or ended: an order without one is armed with lastSeen = score - ttl. ttl mode
--                keeps one for every watched order ('W' while armed), because a key's value is gone by the time its
--                notification arrives.
-- KEYS[3] ended: sorted set, orderId -> when it ended or was given up, so that marks can be pruned after retention
-- ARGV[1] ttl ms, ARGV[2] wake channel, ARGV[3] shard, ARGV[4] trigger key prefix in ttl mode, '' in zset mode,
--         then per order: orderId, deadline ms (event time + ttl, as an integer), kind ('a' active status,
--         't' terminal, 'g' upstream does not know it). The caller adds the ttl so that the common case, a status of
--         an order without a state entry, passes its deadline to ZADD as it came, with no number parsed or formatted.
-- Returns {armed, ended, ignored}.
local due, state, ended = KEYS[1], KEYS[2], KEYS[3]
keep_hash_table(state)
local ttl, trigger = tonumber(ARGV[1]), ARGV[4]
local zset = trigger == ''
local first = 5
local n = (#ARGV - first + 1) / 3
if n < 1 then
  return {0, 0, 0}
end

local ids = {}
for i = 1, n do
  ids[i] = ARGV[first + (i - 1) * 3]
end
local states = redis.call('HMGET', state, unpack(ids))
local head = zset and redis.call('ZRANGE', due, 0, 0, 'WITHSCORES') or {}
local now = now_ms()
local raise, raised = {}, 0

-- What each mode does to watch, stop watching and re-arm an order.
local function stop_timer(id)
  if zset then
    redis.call('ZREM', due, id)
  else
    redis.call('DEL', trigger .. id)
  end
end

-- deadline: ARGV's string, which ZADD and PXAT take as they are
local function set_deadline(id, deadline, fresh)
  if not zset then
    local due_at = tonumber(deadline)
    redis.call('HSET', state, id, format_state('W', due_at - ttl, 0, due_at, 't'))
    -- a deadline already past would delete the key without any notification: expire it a moment from now instead
    redis.call('SET', trigger .. id, '1', 'PXAT', due_at > now and deadline or fmt(now + 1))
  elseif fresh then
    -- the common case, batched below: GT keeps the later of two deadlines, so duplicates and stragglers change nothing
    raised = raised + 2
    raise[raised - 1] = deadline
    raise[raised] = id
  else
    redis.call('HDEL', state, id)
    redis.call('ZADD', due, deadline, id)
  end
end

local function last_seen(st, id)
  local s = parse_state(st)
  if s then
    return s.seen
  end
  local score = zset and redis.call('ZSCORE', due, id)
  return score and tonumber(score) - ttl or nil
end

-- The status rules (docs/contract.md; the table of cases in StatusRulesTest holds every implementation to them).
local armed, finished, ignored = 0, 0, 0
for i = 1, n do
  local id = ids[i]
  local deadline = ARGV[first + (i - 1) * 3 + 1]
  local kind = ARGV[first + (i - 1) * 3 + 2]
  local st = states[i]
  if kind == 't' then
    -- a terminal status ends the watch for good: the mark keeps replayed statuses from reviving the order
    stop_timer(id)
    redis.call('HSET', state, id, FINISHED)
    redis.call('ZADD', ended, fmt(now), id)
    finished = finished + 1
  elseif st == FINISHED then
    ignored = ignored + 1
  elseif kind == 'g' then
    -- upstream does not know the order: forget it, unless a newer status is known
    local seen = last_seen(st, id)
    if seen and tonumber(deadline) - ttl >= seen then
      stop_timer(id)
      redis.call('HDEL', state, id)
      redis.call('ZREM', ended, id)
      finished = finished + 1
    else
      ignored = ignored + 1
    end
  elseif not st then
    set_deadline(id, deadline, true)
    armed = armed + 1
  elseif tonumber(deadline) - ttl > last_seen(st, id) then
    -- a newer status than the one the expiries counted from: the attempt count starts again
    redis.call('ZREM', ended, id)
    set_deadline(id, deadline, false)
    armed = armed + 1
  else
    ignored = ignored + 1
  end
end

call_in_chunks('ZADD', due, 'GT', raise, raised)

-- wake the timer when this batch put a deadline before the one it sleeps towards
if zset then
  local new_head = redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')
  if new_head[2] and (not head[2] or tonumber(new_head[2]) < tonumber(head[2])) then
    redis.call('PUBLISH', ARGV[2], ARGV[3])
  end
end
return {armed, finished, ignored}
