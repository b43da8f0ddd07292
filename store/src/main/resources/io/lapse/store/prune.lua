-- Forgets finished and given-up orders once the retention has passed.
-- KEYS[1] state, KEYS[2] ended (see arm.lua); ARGV[1] retention ms, ARGV[2] most orders to prune
-- Returns the number pruned.
local state, ended = KEYS[1], KEYS[2]
local now = now_ms()
local ids = redis.call('ZRANGEBYSCORE', ended, '-inf', now - tonumber(ARGV[1]), 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(ids) do
  local st = redis.call('HGET', state, id)
  local s = parse_state(st)
  if st == FINISHED or (s and s.phase == 'G') then
    redis.call('HDEL', state, id)
  end
  redis.call('ZREM', ended, id)
end
return #ids
