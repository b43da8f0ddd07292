-- Acknowledges expiries that Kafka has accepted: the order's next repeat is due at firedAt + repeat, or, after the
-- last attempt, the order is given up. A claim that a newer status, an end or another claim replaced is left alone.
-- KEYS[1] due, KEYS[2] state, KEYS[3] ended (see arm.lua)
-- ARGV[1] repeat ms, ARGV[2] max attempts, then per expiry: orderId, attempt, deadline, firedAt
-- Returns the number of expiries acknowledged.
local due, state, ended = KEYS[1], KEYS[2], KEYS[3]
keep_hash_table(state)
local repeat_ms, max_attempts = tonumber(ARGV[1]), tonumber(ARGV[2])
local now = now_ms()
local acked = 0
for i = 3, #ARGV, 4 do
  local id, attempt, deadline, fired_at = ARGV[i], ARGV[i + 1], ARGV[i + 2], tonumber(ARGV[i + 3])
  local st = redis.call('HGET', state, id)
  if st then
    local phase, s, a, d, src = string.match(st, '^(%a)|(%d+)|(%d+)|(%d+)|(%a)$')
    if phase == 'L' and a == attempt and d == deadline then
      local rest = '|' .. s .. '|' .. a .. '|' .. d .. '|' .. src
      if tonumber(a) >= max_attempts then
        redis.call('ZREM', due, id)
        redis.call('HSET', state, id, 'G' .. rest)
        redis.call('ZADD', ended, fmt(now), id)
      else
        redis.call('ZADD', due, 'XX', fmt(fired_at + repeat_ms), id)
        redis.call('HSET', state, id, 'A' .. rest)
      end
      acked = acked + 1
    end
  end
end
return acked
