-- timer.mode=ttl: acknowledges expiries Kafka has accepted (see ack.lua); the trigger is set for the next repeat.
-- KEYS[1] state, KEYS[2] ended; ARGV[1] trigger key prefix, ARGV[2] repeat ms, ARGV[3] max attempts,
-- then per expiry: orderId, attempt, deadline, firedAt
-- Returns the number of expiries acknowledged.
local state, ended, trigger = KEYS[1], KEYS[2], ARGV[1]
keep_hash_table(state)
local repeat_ms, max_attempts = tonumber(ARGV[2]), tonumber(ARGV[3])
local now = now_ms()
local acked = 0
for i = 4, #ARGV, 4 do
  local id, attempt, deadline, fired_at = ARGV[i], ARGV[i + 1], ARGV[i + 2], tonumber(ARGV[i + 3])
  local st = redis.call('HGET', state, id)
  if st then
    local phase, s, a, d, src = string.match(st, '^(%a)|(%d+)|(%d+)|(%d+)|(%a)$')
    if phase == 'L' and a == attempt and d == deadline then
      if tonumber(a) >= max_attempts then
        redis.call('HSET', state, id, 'G|' .. s .. '|' .. a .. '|' .. d .. '|' .. src)
        redis.call('DEL', trigger .. id)
        redis.call('ZADD', ended, fmt(now), id)
      else
        local next = fmt(math.max(fired_at + repeat_ms, now + 1))
        redis.call('HSET', state, id, 'A|' .. s .. '|' .. a .. '|' .. next .. '|t')
        redis.call('SET', trigger .. id, '1', 'PXAT', next)
      end
      acked = acked + 1
    end
  end
end
return acked
