-- zset mode: claims the due orders of one shard with a lease: each claimed order's score moves to now + lease, so
-- that an expiry whose publish is never acknowledged fires again, with the same (orderId, deadline, attempt), once
-- the lease has passed. "now" is Redis's clock, shared by every timer instance.
-- KEYS[1] due, KEYS[2] state (see arm.lua), KEYS[3] epoch (the compensator's marker that the shard's data is whole)
-- ARGV[1] watermark ms: only deadlines at or before it are due; ARGV[2] lease ms; ARGV[3] most orders to claim;
-- ARGV[4] ttl ms; ARGV[5] max attempts (ARGV[6], ARGV[7]: ttl mode's, see ttl-claim.lua)
-- Returns {now, next score or '' when the shard is empty, {orderId, lastSeen, attempt, deadline, source, ...}}.
local due, state = KEYS[1], KEYS[2]
if redis.call('EXISTS', KEYS[3]) == 0 then
  return {fmt(now_ms()), '', {}} -- Redis lost its data: nothing fires until the compensator's rebuild sets the epoch
end
keep_hash_table(state)
local now = now_ms()
local limit = math.min(now, tonumber(ARGV[1]))
local lease, ttl, max_attempts = tonumber(ARGV[2]), tonumber(ARGV[4]), tonumber(ARGV[5])

local items = redis.call('ZRANGEBYSCORE', due, '-inf', limit, 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for i = 1, #items, 2 do
  local id, score = items[i], tonumber(items[i + 1])
  local st = redis.call('HGET', state, id)
  local s = parse_state(st)
  local seen, attempt, deadline, source
  if not st then
    seen, attempt, deadline, source = score - ttl, 1, score, 't'
  elseif s and s.phase == 'L' then
    -- the lease of an unacknowledged claim ran out: the same expiry again
    seen, attempt, deadline, source = s.seen, s.attempt, s.deadline, s.source
  elseif s and s.phase == 'A' then
    seen, attempt, deadline, source = s.seen, s.attempt + 1, score, 't'
  elseif s and s.phase == 'R' then
    seen, attempt, deadline, source = s.seen, 1, score, 'c'
  end
  if not attempt or attempt > max_attempts then
    -- a finished or given-up order, or max attempts lowered since: nothing more to fire
    redis.call('ZREM', due, id)
  else
    redis.call('ZADD', due, fmt(now + lease), id)
    redis.call('HSET', state, id, format_state('L', seen, attempt, deadline, source))
    out[#out + 1] = id
    out[#out + 1] = fmt(seen)
    out[#out + 1] = fmt(attempt)
    out[#out + 1] = fmt(deadline)
    out[#out + 1] = source
  end
end
local head = redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')
return {fmt(now), head[2] or '', out}
