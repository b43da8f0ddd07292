-- lapse fire: claims one watched order now, whatever its deadline and the watermark, as an expiry with deadline now
-- and source 'm' (manual). It is published and then acknowledged like the timer's own claims (ack.lua); one that
-- Kafka never acknowledged fires again, still as 'm', once the lease has passed (claim.lua).
-- KEYS[1] due, KEYS[2] state (see arm.lua)
-- ARGV[1] orderId, ARGV[2] lease ms, ARGV[3] ttl ms, ARGV[4] max attempts
-- Returns {now, outcome[, lastSeen, attempt]}: outcome 'claimed', or why not: 'unknown', 'finished', or 'leased' (an
-- expiry of the order is being published right now). A given-up order is claimed with its final attempt again, and
-- stays given up once acknowledged.


local due, state = KEYS[1], KEYS[2]
keep_hash_table(state)
local id, lease, ttl, max_attempts = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local now = now_ms()
local st = redis.call('HGET', state, id)
local score = redis.call('ZSCORE', due, id)
if st == 'T' then
  return {fmt(now), 'finished'}
end
local phase, seen, attempt
if st then
  phase, seen, attempt = state_fields(st)
end
if phase == 'L' then
  return {fmt(now), 'leased'}
elseif not st and not score then
  return {fmt(now), 'unknown'}
end
if not st then
  seen, attempt = tonumber(score) - ttl, 1
elseif phase == 'A' then
  attempt = attempt + 1
elseif phase ~= 'G' then
  attempt = 1
end
-- a given-up order (or one whose attempts a lowered timer.max-attempts has used up) gets its final attempt again
attempt = math.min(attempt, max_attempts)
redis.call('ZADD', due, fmt(now + lease), id)
redis.call('HSET', state, id, format_state('L', seen, attempt, now, 'm'))
return {fmt(now), 'claimed', fmt(seen), fmt(attempt)}
