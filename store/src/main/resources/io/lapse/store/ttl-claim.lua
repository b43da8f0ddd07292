-- ttl mode: claims, with a lease, the orders of one shard whose trigger keys Redis announced as expired (the timer
-- records each announcement in the due set). An announced order that was re-armed or ended since fires nothing; one
-- not yet past the watermark has its trigger set again to retry shortly. A leased order's trigger expires with its
-- lease, so an expiry whose publish is never acknowledged is announced, and fires, again.
-- While the shard has no epoch, a rebuild is under way: as in claim.lua, only orders due by its horizon that it wrote
-- fire; ingest's entries ('W') wait for the epoch.
-- KEYS[1] due (announced orders), KEYS[2] state (see arm.lua), KEYS[3] epoch, KEYS[4] horizon, KEYS[5] the server
-- they were declared on (see claim.lua)
-- ARGV[1] watermark ms; ARGV[2] lease ms; ARGV[3] most orders to claim; ARGV[4] ttl ms (unused here);
-- ARGV[5] max attempts; ARGV[6] trigger key prefix; ARGV[7] retry ms
-- Returns {now, the earliest announcement left or '' when none, the claims packed as claim.lua packs them}.
local due, state, trigger = KEYS[1], KEYS[2], ARGV[6]
keep_hash_table(state)
local lease, max_attempts, retry = tonumber(ARGV[2]), tonumber(ARGV[5]), tonumber(ARGV[7])
local now = now_ms()
local limit = math.min(now, tonumber(ARGV[1]))
local rebuilding = redis.call('EXISTS', KEYS[3]) == 0
if rebuilding then
  -- Redis lost its data: retry every trigger the rebuild does not vouch for until it sets the epoch
  limit = math.min(limit, tonumber(redis.call('GET', KEYS[4]) or -1))
end
if not declared_here(KEYS[5]) then
  -- another server's data (see claim.lua): retry every trigger until the fence and a rebuild
  rebuilding, limit = true, -1
end

local announced = redis.call('ZRANGE', due, 0, tonumber(ARGV[3]) - 1)
local out = {}
for _, id in ipairs(announced) do
  redis.call('ZREM', due, id)
  local s = parse_state(redis.call('HGET', state, id))
  if s and redis.call('EXISTS', trigger .. id) == 0 then
    local attempt
    if s.phase == 'W' or s.phase == 'R' then
      attempt = 1
    elseif s.phase == 'A' then
      attempt = s.attempt + 1
    elseif s.phase == 'L' then
      attempt = s.attempt
    end
    if attempt and attempt > max_attempts then
      redis.call('HSET', state, id, format_state('G', s.seen, s.attempt, s.deadline, s.source))
    elseif attempt and (s.deadline > limit or (rebuilding and s.phase == 'W')) then
      redis.call('SET', trigger .. id, '1', 'PX', retry)
    elseif attempt then
      redis.call('HSET', state, id, format_state('L', s.seen, attempt, s.deadline, s.source))
      redis.call('SET', trigger .. id, '1', 'PX', lease)
      out[#out + 1] = id
      out[#out + 1] = fmt(s.seen)
      out[#out + 1] = fmt(attempt)
      out[#out + 1] = fmt(s.deadline)
      out[#out + 1] = s.source
      end
  end
end
local head = redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')
return {fmt(now), head[2] or '', table.concat(out, '\t')}
