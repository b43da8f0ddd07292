-- Re-arms orders that Redis has lost (after a crash or flush) from the compensator's durable view. An order that
-- Redis still knows in any way is left alone, so a recovery never races ingest into an earlier deadline.
-- KEYS[1] due, KEYS[2] state (see arm.lua); ARGV[1] ttl ms, then per order: orderId, lastSeen ms
-- Returns the orderIds re-armed.
local due, state = KEYS[1], KEYS[2]
keep_hash_table(state)
local ttl = tonumber(ARGV[1])
local recovered = {}
for i = 2, #ARGV, 2 do
  local id, seen = ARGV[i], tonumber(ARGV[i + 1])
  if redis.call('HEXISTS', state, id) == 0 and not redis.call('ZSCORE', due, id) then
    redis.call('ZADD', due, fmt(seen + ttl), id)
    redis.call('HSET', state, id, 'R|' .. fmt(seen) .. '|0|0|c')
    recovered[#recovered + 1] = id
  end
end
return recovered
