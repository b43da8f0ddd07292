-- Put in front of every Lapse script by LuaScript: Redis scripts cannot load code of their own.
-- Writes after TIME must be replicated as effects (Redis 6.2; the default from 7.0 on).
redis.replicate_commands()

-- Redis's clock in ms: one clock for every timer instance, whatever their hosts say.
local function now_ms()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- The run id of the server running the script. A restarted server, a promoted replica and another cluster node each
-- have another one, so an epoch records the server it was declared on (see epoch-fence.lua).
local function server_id()
  return string.match(redis.call('INFO', 'server'), 'run_id:(%w+)')
end

-- Scores and times as integers; tostring would write 1763780090000 as 1.76378009e+12.
local function fmt(x)
  return string.format('%.0f', x)
end

-- Keeps a shard's state hash a hash table: Redis stores a hash of up to hash-max-listpack-entries fields (128 or
-- 512 by default) as a list that HGET and HMGET scan once per field, so arming a batch of orders cost time in
-- proportion to the orders fired lately, hundreds of microseconds per call. A field name longer than
-- hash-max-listpack-value (64 by default) makes Redis keep the hash a table for good; TABLE_KEEPER, defined above by
-- LuaScript from TimerKeys, is such a name, and at over 128 characters it can name no order.
local function keep_hash_table(key)
  redis.call('HSETNX', key, TABLE_KEEPER, '')
end

-- The per-order entry of a shard's state hash, the one place that knows its layout: 'T' marks a finished order;
-- every other entry is 'phase|lastSeen|attempt|deadline|source' (see docs/timer.md for the phases and sources).
local FINISHED = 'T'

-- Returns the entry as a table {phase, seen, attempt, deadline, source}, or nil for no entry or a finished order.
local function parse_state(st)
  if not st or st == FINISHED then
    return nil
  end
  local phase, seen, attempt, deadline, source = string.match(st, '^(%a)|(%d+)|(%d+)|(%d+)|(%a)$')
  if not phase then
    return nil
  end
  return {phase = phase, seen = tonumber(seen), attempt = tonumber(attempt), deadline = tonumber(deadline),
          source = source}
end

-- The same entry as separate values: phase, seen, attempt, deadline, source; nil for no entry or a finished order.
local function state_fields(st)
  local s = parse_state(st)
  if not s then
    return nil
  end
  return s.phase, s.seen, s.attempt, s.deadline, s.source
end

local function format_state(phase, seen, attempt, deadline, source)
  return phase .. '|' .. fmt(seen) .. '|' .. fmt(attempt) .. '|' .. fmt(deadline) .. '|' .. source
end
