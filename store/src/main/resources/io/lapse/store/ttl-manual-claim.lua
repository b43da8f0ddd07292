-- timer.mode=ttl: lapse fire (see manual-claim.lua). The trigger is set to the lease, so that an expiry Kafka never
-- acknowledged fires again, still as 'm', through ttl-claim.lua; ack.lua acknowledges it.
-- KEYS[1] state; ARGV[1] trigger key prefix, ARGV[2] orderId, ARGV[3] lease ms, ARGV[4] max attempts
-- Returns {now, outcome[, lastSeen, attempt]} as manual-claim.lua.


local state, trigger = KEYS[1], ARGV[1]
keep_hash_table(state)
local id, lease, max_attempts = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local now = now_ms()
local st = redis.call('HGET', state, id)
if not st then
  return {fmt(now), 'unknown'}
elseif st == 'T' then
  return {fmt(now), 'finished'}
end
local phase, seen, attempt = state_fields(st)
if phase == 'L' then
  return {fmt(now), 'leased'}
elseif phase == 'A' then
  attempt = attempt + 1
elseif phase ~= 'G' then
  attempt = 1
end
-- a given-up order (or one whose attempts a lowered timer.max-attempts has used up) gets its final attempt again
attempt = math.min(attempt, max_attempts)
redis.call('HSET', state, id, format_state('L', seen, attempt, now, 'm'))
redis.call('SET', trigger .. id, '1', 'PX', lease)
return {fmt(now), 'claimed', fmt(seen), fmt(attempt)}
