-- Applies a batch of statuses to one shard in one round trip: the status rules, for both timer modes.
-- KEYS[1] due:   zset mode: sorted set, orderId -> the moment the order next needs attention (ms);
--                ttl mode: the orders whose trigger key Redis announced as expired, waiting for a claim
-- KEYS[2] state: hash, orderId -> an entry of prelude.lua's layout. zset mode keeps one only for orders that were
--                fired, leased, recovered or ended: an order without one is armed with lastSeen = score - ttl. ttl mode
--                keeps one for every watched order ('W' while armed), because a key's value is gone by the time its
--                notification arrives.
-- KEYS[3] ended: sorted set, orderId -> when it ended or was given up, so that marks can be pruned after retention
-- ARGV[1] ttl ms, ARGV[2] wake channel, ARGV[3] shard, ARGV[4] trigger key prefix in ttl mode, '' in zset mode,
--         ARGV[5] the orders' kinds, one letter each ('a' active status, 't' terminal, 'g' upstream does not know it),
--         then per order: deadline ms (event time + ttl, as an integer), orderId. The common case, an active status of
--         an order without a state entry, costs a lookup beside ZADD GT itself: the caller adds the ttl, and the pairs
--         are in the order ZADD takes them, so that a batch of only such statuses goes to ZADD as it came, with no
--         number parsed or formatted, no list built and no rule run per order.
-- Returns {armed, ended, ignored}.
local due, state, ended = KEYS[1], KEYS[2], KEYS[3]
keep_hash_table(state)
local ttl, trigger, kinds = tonumber(ARGV[1]), ARGV[4], ARGV[5]
local zset = is_zset_mode(trigger)
local first = 6
local n = #kinds
if n < 1 then
  return {0, 0, 0}
end

local ids = {}
for i = 1, n do
  ids[i] = ARGV[first + (i - 1) * 2 + 1]
end
local states = redis.call('HMGET', state, unpack(ids))
local head = zset and redis.call('ZRANGE', due, 0, 0, 'WITHSCORES') or {}
local now = now_ms()
-- in zset mode, the orders (their index, in order) whose deadline is not for the batched ZADD GT below; few or none
local others, other_count = {}, 0

-- What each mode does to watch, stop watching and re-arm an order.
local function stop_timer(id)
  if zset then
    redis.call('ZREM', due, id)
  else
    redis.call('DEL', trigger .. id)
  end
end

-- deadline: ARGV's string, which ZADD and PXAT take as they are
local function set_deadline(id, deadline)
  if not zset then
    local due_at = tonumber(deadline)
    redis.call('HSET', state, id, format_state('W', due_at - ttl, 0, due_at, 't'))
    -- a deadline already past would delete the key without any notification: expire it a moment from now instead
    redis.call('SET', trigger .. id, '1', 'PXAT', due_at > now and deadline or fmt(now + 1))
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

-- The common case, a batch of only active statuses of orders without a state entry: the rules below would find each
-- of them armed and fresh, so they are not run one by one. The check is a scan of the states, in place of a pass of
-- the rules per order, which cost Redis as much as the lookups and the ZADD together.
local common = zset and not string.find(kinds, '[tg]')
if common then
  for i = 1, n do
    if states[i] then
      common = false
      break
    end
  end
end

-- The status rules (docs/contract.md; the table of cases in StatusRulesTest holds every implementation to them).
local TERMINAL, GONE = string.byte('t'), string.byte('g')
local undecided = common and 0 or n
local armed, finished, ignored = n - undecided, 0, 0
for i = 1, undecided do
  local id = ids[i]
  local deadline = ARGV[first + (i - 1) * 2]
  local kind = string.byte(kinds, i)
  local st = states[i]
  local fresh = false
  if kind == TERMINAL then
    -- a terminal status ends the watch for good: the mark keeps replayed statuses from reviving the order
    stop_timer(id)
    redis.call('HSET', state, id, FINISHED)
    redis.call('ZADD', ended, fmt(now), id)
    finished = finished + 1
  elseif st == FINISHED then
    -- a status heard after the order's end keeps its mark for the retention from then on (docs/contract.md, "Statuses
    -- after the end"): a producer pushing on for a finished order never gets it watched again
    if kind ~= GONE then
      redis.call('ZADD', ended, 'GT', fmt(tonumber(deadline) - ttl), id)
    end
    ignored = ignored + 1
  elseif kind == GONE then
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
    if zset then
      -- the common case, batched below: GT keeps the later of two deadlines, so stragglers change nothing
      fresh = true
    else
      set_deadline(id, deadline)
    end
    armed = armed + 1
  elseif tonumber(deadline) - ttl > last_seen(st, id) then
    -- a newer status than the one the expiries counted from: the attempt count starts again
    redis.call('ZREM', ended, id)
    set_deadline(id, deadline)
    armed = armed + 1
  else
    ignored = ignored + 1
  end
  if zset and not fresh then
    other_count = other_count + 1
    others[other_count] = i
  end
end

if zset and other_count == 0 then
  call_in_chunks('ZADD', due, 'GT', ARGV, 2 * n, first)
elseif zset and other_count < n then
  local raise, raised, next_other = {}, 0, 1
  for i = 1, n do
    if others[next_other] == i then
      next_other = next_other + 1
    else
      raise[raised + 1] = ARGV[first + (i - 1) * 2]
      raise[raised + 2] = ids[i]
      raised = raised + 2
    end
  end
  call_in_chunks('ZADD', due, 'GT', raise, raised)
end

-- wake the timer when this batch put a deadline before the one it sleeps towards
if zset then
  local new_head = redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')
  if new_head[2] and (not head[2] or tonumber(new_head[2]) < tonumber(head[2])) then
    redis.call('PUBLISH', ARGV[2], ARGV[3])
  end
end
return {armed, finished, ignored}
