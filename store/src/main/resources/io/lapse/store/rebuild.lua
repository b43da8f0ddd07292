-- Writes what the compensator's durable mirror knows of some orders of one shard wherever Redis holds less: after
-- Redis lost its data (flush, restart without persistence, failover to a stale replica), and on every drift scan.
-- Nothing is ever written backwards, so a rebuild may run while ingest arms, the timer fires and another rebuild runs:
-- an order's progress is (lastSeen, then 2 per expiry acknowledged, 1 while one is leased), a finished order is past
-- every progress, and Redis keeps whatever is as far or further.
-- KEYS[1] due, KEYS[2] state, KEYS[3] ended (see arm.lua; due is unused in ttl mode)
-- ARGV[1] trigger key prefix in ttl mode, '' in zset mode, ARGV[2] ttl ms, ARGV[3] '1' to count without writing, then
-- per order (see TimerImage): orderId, phase ('w' watched, 'g' given up, 't' finished), lastSeen,
-- expiries published since lastSeen, deadline of the last of them, and when the next is due ('w') or the order
-- ended ('g', 't')
-- Returns {watched, given up, finished, kept, overdue}: orders written by phase, orders Redis already had as far, and
-- watched orders written (or whose lost trigger or due entry was set again) that are due at once.

local due, state, ended = KEYS[1], KEYS[2], KEYS[3]
local trigger, ttl, dry = ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1'
local ttl_mode = not is_zset_mode(trigger)
local first = 4
local n = (#ARGV - first + 1) / 6
if n < 1 then
  return {0, 0, 0, 0, 0}
end
if not dry then
  keep_hash_table(state)
end
local now = now_ms()
local COMPLETE = math.huge

local ids = {}
for i = 1, n do
  ids[i] = ARGV[first + (i - 1) * 6]
end
local states = redis.call('HMGET', state, unpack(ids))
local scores = {}
if not ttl_mode then
  scores = redis.call('ZMSCORE', due, unpack(ids))
end

-- what Redis holds of an order: lastSeen and progress, or nil when it knows nothing, or false when it cannot tell
local function held(st, score)
  if st == 'T' then
    return 0, COMPLETE
  elseif st then
    local phase, seen, attempt = state_fields(st)
    if not phase then
      return false
    elseif phase == 'L' then
      return seen, 2 * attempt - 1
    elseif phase == 'A' or phase == 'G' then
      return seen, 2 * attempt
    end
    return seen, 0
  elseif score then
    return tonumber(score) - ttl, 0
  end
  return nil
end

local function forget(id)
  redis.call('HDEL', state, id)
  redis.call('ZREM', ended, id)
  if ttl_mode then
    redis.call('DEL', trigger .. id)
  else
    redis.call('ZREM', due, id)
  end
end

local function arm(id, st, at)
  redis.call('HSET', state, id, st)
  if ttl_mode then
    -- a deadline already past would delete the key without any notification: expire it a moment from now instead
    redis.call('SET', trigger .. id, '1', 'PXAT', fmt(math.max(at, now + 1)))
  else
    redis.call('ZADD', due, fmt(at), id)
  end
end

local watched, given_up, finished, kept, overdue = 0, 0, 0, 0, 0
for i = 1, n do
  local base = first + (i - 1) * 6
  local id, phase = ARGV[base], ARGV[base + 1]
  local seen, fired, fired_deadline, at = tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3]),
      tonumber(ARGV[base + 4]), tonumber(ARGV[base + 5])
  local progress = phase == 't' and COMPLETE or 2 * fired
  local held_seen, held_progress = held(states[i], scores[i])
  local ahead = held_seen == nil
      or (held_seen and held_progress ~= COMPLETE
        and (progress == COMPLETE or seen > held_seen or (seen == held_seen and progress > held_progress)))
  if not ahead then
    kept = kept + 1
    if ttl_mode and phase == 'w' and held_seen and held_progress ~= COMPLETE and states[i]
        and string.sub(states[i], 1, 1) ~= 'G' and redis.call('EXISTS', trigger .. id) == 0 then
      -- a watched order whose keyspace notification was lost: expire its trigger at once
      overdue = overdue + 1
      if not dry then
        redis.call('SET', trigger .. id, '1', 'PX', 1)
      end
    elseif not ttl_mode and phase == 'w' and held_seen and held_progress ~= COMPLETE and not scores[i] then
      -- a watched order whose state entry Redis kept but whose due entry it lost (a deleted due set): nothing would
      -- ever claim it again. Its due entry comes back where its state says: a rebuild's first attempt at its
      -- deadline, a lost lease at once (the same expiry again), the next attempt where the mirror, as far as Redis,
      -- puts it; an order Redis holds further than the mirror waits for a round whose mirror has caught up.
      local s = parse_state(states[i])
      local score
      if s and s.phase == 'R' then
        score = s.deadline
      elseif s and s.phase == 'L' then
        score = now
      elseif s and s.phase == 'A' and held_seen == seen and held_progress == progress then
        score = at
      end
      if score then
        if score <= now then
          overdue = overdue + 1
        end
        if not dry then
          redis.call('ZADD', due, fmt(score), id)
        end
      end
    end
  elseif phase == 't' then
    finished = finished + 1
    if not dry then
      forget(id)
      redis.call('HSET', state, id, 'T')
      redis.call('ZADD', ended, fmt(at), id)
    end
  elseif phase == 'g' then
    given_up = given_up + 1
    if not dry then
      forget(id)
      redis.call('HSET', state, id, format_state('G', seen, fired, fired_deadline, 't'))
      redis.call('ZADD', ended, fmt(at), id)
    end
  else
    watched = watched + 1
    if at <= now then
      overdue = overdue + 1
    end
    if not dry then
      forget(id)
      if fired == 0 then
        -- the claim reads 'R' as attempt 1 due at its score, with source compensator
        arm(id, format_state('R', seen, 0, at, 'c'), at)
      elseif ttl_mode then
        -- ttl mode keeps the next deadline in the state (see ack.lua)
        arm(id, format_state('A', seen, fired, at, 't'), at)
      else
        arm(id, format_state('A', seen, fired, fired_deadline, 't'), at)
      end
    end
  end
end
return {watched, given_up, finished, kept, overdue}
