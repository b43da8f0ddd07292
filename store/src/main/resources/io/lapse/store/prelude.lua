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

-- Whether the shard's epoch (or a rebuild's horizon) was declared on the server running the script, by the key that
-- records the server (see epoch-fence.lua). A claim asks it every time rather than trusting the fence, which runs
-- once a second: in between, a restarted server, a promoted replica or a restored snapshot would fire its old
-- deadlines, which live orders have moved past since.
local function declared_here(server_key)
  return redis.call('GET', server_key) == server_id()
end

-- How a script both timer modes run (arm, ack, rebuild) learns which one it serves: from the trigger key prefix it is
-- given, '' in zset mode (a ttl mode trigger key is the prefix followed by the orderId). A mode's own scripts (claim,
-- ttl-claim, manual-claim, ttl-manual-claim) need not ask.
local function is_zset_mode(trigger)
  return trigger == ''
end

-- Scores and times as integers; tostring would write 1763780090000 as 1.76378009e+12.
local function fmt(x)
  return string.format('%.0f', x)
end

-- A number formatted by fmt, or a string passed on as it is: an integer from ARGV, or one formatted already. Never a
-- score as Redis returns it: Redis 7.2 and later may write an integral score in exponent form.
local function as_integer(x)
  if type(x) == 'string' then
    return x
  end
  return fmt(x)
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

-- seen, attempt and deadline: numbers, or integer strings (see as_integer), which cost no formatting again
local function format_state(phase, seen, attempt, deadline, source)
  return phase .. '|' .. as_integer(seen) .. '|' .. as_integer(attempt) .. '|' .. as_integer(deadline) .. '|' .. source
end

-- Arguments per call of the two functions below: unpack of a longer list overflows Lua's C stack (8,000). Even, so
-- that score-member and field-value pairs stay together.
local CHUNK = 6000

-- Calls command on key with flag (or nil) and list[1..n] (list[from..from+n-1] when from is given, e.g. a stretch of
-- ARGV passed on as it came), in calls of at most CHUNK arguments.
local function call_in_chunks(command, key, flag, list, n, from)
  from = from or 1
  local stop = from + n - 1
  for i = from, stop, CHUNK do
    local last = math.min(i + CHUNK - 1, stop)
    if flag then
      redis.call(command, key, flag, unpack(list, i, last))
    else
      redis.call(command, key, unpack(list, i, last))
    end
  end
end

-- The state hash's entries of ids, in order (false where there is none), read in calls of at most CHUNK fields.
local function read_states(key, ids)
  local states = {}
  for i = 1, #ids, CHUNK do
    local part = redis.call('HMGET', key, unpack(ids, i, math.min(i + CHUNK - 1, #ids)))
    for k = 1, #part do
      states[i + k - 1] = part[k]
    end
  end
  return states
end
