-- timer.mode=ttl: the compensator's repair (see recover.lua). An order Redis knows nothing of is armed again; a
-- watched order whose trigger is missing lost its keyspace notification, so its trigger is set to expire at once and
-- its next expiry says source=compensator.
-- KEYS[1] state; ARGV[1] ttl ms, ARGV[2] trigger key prefix, then per order: orderId, lastSeen ms
-- Returns the orderIds repaired.
local state, ttl, trigger = KEYS[1], tonumber(ARGV[1]), ARGV[2]
keep_hash_table(state)
local now = now_ms()
local repaired = {}
for i = 3, #ARGV, 2 do
  local id, seen = ARGV[i], tonumber(ARGV[i + 1])
  local st = redis.call('HGET', state, id)
  if not st then
    redis.call('HSET', state, id, 'R|' .. fmt(seen) .. '|0|' .. fmt(seen + ttl) .. '|c')
    redis.call('SET', trigger .. id, '1', 'PXAT', fmt(math.max(seen + ttl, now + 1)))
    repaired[#repaired + 1] = id
  elseif st ~= 'T' and redis.call('EXISTS', trigger .. id) == 0 then
    local phase, rest = string.match(st, '^(%a)(|%d+|%d+|%d+|)%a$')
    if phase == 'W' or phase == 'A' or phase == 'L' or phase == 'R' then
      redis.call('HSET', state, id, phase .. rest .. 'c')
      redis.call('SET', trigger .. id, '1', 'PX', 1)
      repaired[#repaired + 1] = id
    end
  end
end
return repaired
