-- Acknowledges expiries that Kafka has accepted: the order's next repeat is due at firedAt + repeat, or, after the
-- last attempt, the order is given up. A claim that a newer status, an end or another claim replaced is left alone.
-- Both timer modes: in ttl mode the next repeat is the order's trigger key expiring, and the due set is not used.
-- KEYS[1] due, KEYS[2] state, KEYS[3] ended (see arm.lua)
-- ARGV[1] repeat ms, ARGV[2] max attempts, ARGV[3] trigger key prefix ('' in zset mode),
-- then per expiry: orderId, attempt, deadline, firedAt
-- Returns the number of expiries acknowledged.
local due, state, ended = KEYS[1], KEYS[2], KEYS[3]
keep_hash_table(state)
local repeat_ms, max_attempts, trigger = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local now = now_ms()
local acked = 0
for i = 4, #ARGV, 4 do
  local id, attempt, deadline, fired_at = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3])
  local s = parse_state(redis.call('HGET', state, id))
  if s and s.phase == 'L' and s.attempt == attempt and s.deadline == deadline then
    if s.attempt >= max_attempts then
      redis.call('HSET', state, id, format_state('G', s.seen, s.attempt, s.deadline, s.source))
      redis.call('ZADD', ended, fmt(now), id)
      if trigger == '' then
        redis.call('ZREM', due, id)
      else
        redis.call('DEL', trigger .. id)
      end
    elseif trigger == '' then
      redis.call('ZADD', due, 'XX', fmt(fired_at + repeat_ms), id)
      redis.call('HSET', state, id, format_state('A', s.seen, s.attempt, s.deadline, s.source))
    else
      -- a trigger in the past would vanish without a notification
      local next = math.max(fired_at + repeat_ms, now + 1)
      redis.call('HSET', state, id, format_state('A', s.seen, s.attempt, next, 't'))
      redis.call('SET', trigger .. id, '1', 'PXAT', fmt(next))
    end
    acked = acked + 1
  end
end
return acked
