-- Takes a shard's epoch away when the server serving it now is not the one it was declared on. A restarted server, a
-- promoted replica that lagged and a restored snapshot keep the epoch but may lack writes made after their copy:
-- firing from such data fires again what was acknowledged, revives what finished, and with data older than the ttl
-- fires every re-armed order at once. Without its epoch the shard fires nothing until the compensator rebuilds it.
-- A rebuild's horizon (epoch-horizon.lua) vouches for such writes too and goes the same way, with the next-epoch key:
-- the rebuild that declared it may have lost part of its writes, so it must not declare the epoch either.
-- KEYS[1] epoch, KEYS[2] the server it was declared on, KEYS[3] horizon, KEYS[4] next epoch
-- Returns the epoch taken away ('up to ' and the horizon when only that was), or nil when it stands or there is none.
local epoch = redis.call('GET', KEYS[1])
local horizon = redis.call('GET', KEYS[3])
if (not epoch and not horizon) or redis.call('GET', KEYS[2]) == server_id() then
  return false
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
if horizon then
  redis.call('DEL', KEYS[4])
end
return epoch or ('up to ' .. horizon)
