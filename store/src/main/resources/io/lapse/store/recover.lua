-- Re-arms orders that Redis has lost (after a crash or flush) from the compensator's durable view. An order that
-- Redis still knows in any way is left alone, so a recovery never races ingest into an earlier deadline; in ttl mode
-- a watched order whose trigger is missing lost its keyspace notification, so its trigger is set to expire at once.
-- Either way the order's next expiry says source=compensator.
-- KEYS[1] due, KEYS[2] state (see arm.lua); ARGV[1] ttl ms, ARGV[2] trigger key prefix ('' in zset mode),
-- then per order: orderId, lastSeen ms
-- Returns the orderIds re-armed.
local due, state = KEYS[1], KEYS[2]
keep_hash_table(state)
local ttl, trigger = tonumber(ARGV[1]), ARGV[2]
local zset = trigger == ''
local now = now_ms()
local recovered = {}
for i = 3, #ARGV, 2 do
  local id, seen = ARGV[i], tonumber(ARGV[i + 1])
  local st = redis.call('HGET', state, id)
  if not st and zset then
    if not redis.call('ZSCORE', due, id) then
      redis.call('ZADD', due, fmt(seen + ttl), id)
      redis.call('HSET', state, id, format_state('R', seen, 0, 0, 'c'))
      recovered[#recovered + 1] = id
    end
  elseif not st then
    redis.call('HSET', state, id, format_state('R', seen, 0, seen + ttl, 'c'))
    redis.call('SET', trigger .. id, '1', 'PXAT', fmt(math.max(seen + ttl, now + 1)))
    recovered[#recovered + 1] = id
  elseif not zset and redis.call('EXISTS', trigger .. id) == 0 then
    local s = parse_state(st)
    if s and s.phase ~= 'G' then
      redis.call('HSET', state, id, format_state(s.phase, s.seen, s.attempt, s.deadline, 'c'))
      redis.call('SET', trigger .. id, '1', 'PX', 1)
      recovered[#recovered + 1] = id
    end
  end
end
return recovered
