-- timer.mode=ttl: turns keyspace notifications of one shard into leased expiries (see ttl-arm.lua). A notification
-- for an order that was re-armed, ended or is not yet past the watermark fires nothing; in the last case the trigger
-- is set again to retry shortly.
-- KEYS[1] state, KEYS[2] epoch; ARGV[1] trigger key prefix, ARGV[2] watermark ms, ARGV[3] lease ms, ARGV[4] max attempts,
-- ARGV[5] retry ms, then orderIds
-- Returns {now, {orderId, lastSeen, attempt, deadline, source, ...}}.
local state, trigger = KEYS[1], ARGV[1]
keep_hash_table(state)
local watermark, lease, max_attempts, retry = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local now = now_ms()
local limit = math.min(now, watermark)
if redis.call('EXISTS', KEYS[2]) == 0 then
  limit = -1 -- Redis lost its data: retry every trigger until the compensator's rebuild sets the epoch
end

local out = {}
for i = 6, #ARGV do
  local id = ARGV[i]
  local st = redis.call('HGET', state, id)
  if st and st ~= 'T' and redis.call('EXISTS', trigger .. id) == 0 then
    local phase, s, a, d, src = string.match(st, '^(%a)|(%d+)|(%d+)|(%d+)|(%a)$')
    local attempt, deadline = nil, tonumber(d)
    if phase == 'W' or phase == 'R' then
      attempt = 1
    elseif phase == 'A' then
      attempt = tonumber(a) + 1
    elseif phase == 'L' then
      attempt = tonumber(a)
    end
    if attempt and attempt > max_attempts then
      redis.call('HSET', state, id, 'G|' .. s .. '|' .. a .. '|' .. d .. '|' .. src)
    elseif attempt and deadline > limit then
      redis.call('SET', trigger .. id, '1', 'PX', retry)
    elseif attempt then
      redis.call('HSET', state, id, 'L|' .. s .. '|' .. attempt .. '|' .. d .. '|' .. src)
      redis.call('SET', trigger .. id, '1', 'PX', lease)
      out[#out + 1] = id
      out[#out + 1] = s
      out[#out + 1] = tostring(attempt)
      out[#out + 1] = d
      out[#out + 1] = src
    end
  end
end
return {fmt(now), out}
