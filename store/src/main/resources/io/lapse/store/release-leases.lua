-- zset mode: a timer instance was just given this shard. The claims of whoever served it before (a process killed
-- mid-claim, or one that lost the shard in a rebalance) would wait out their lease before firing again; they fire
-- again now instead, with the same (orderId, deadline, attempt). A previous owner still publishing one makes a
-- duplicate, as a lease that ran out does: at least once either way.
-- KEYS[1] due, KEYS[2] state (see arm.lua); ARGV[1] lease ms
-- A leased order's score is its claim time + lease, so every lease lies in (now, now + lease].
-- Returns the number of leases released.
local due, state = KEYS[1], KEYS[2]
local now = now_ms()
local ids = redis.call('ZRANGEBYSCORE', due, '(' .. fmt(now), fmt(now + tonumber(ARGV[1])))
local released = 0
for i = 1, #ids, 1000 do
  local chunk = {unpack(ids, i, math.min(i + 999, #ids))}
  local states = redis.call('HMGET', state, unpack(chunk))
  for j, id in ipairs(chunk) do
    local s = parse_state(states[j])
    if s and s.phase == 'L' then
      redis.call('ZADD', due, fmt(now), id)
      released = released + 1
    end
  end
end
return released
