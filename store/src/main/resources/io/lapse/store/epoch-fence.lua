-- Takes a shard's epoch away when the server serving it now is not the one it was declared on. A restarted server, a
-- promoted replica that lagged and a restored snapshot keep the epoch but may lack writes made after their copy:
-- firing from such data fires again what was acknowledged, revives what finished, and with data older than the ttl
-- fires every re-armed order at once. Without its epoch the shard fires nothing until the compensator rebuilds it.
-- A rebuild's horizon (epoch-horizon.lua) vouches for such writes too and goes the same way, with the next-epoch key:
-- the rebuild that declared it may have lost part of its writes, so it must not declare the epoch either. So does a
-- rebuild under way that began on another server, horizon or not (epoch-begin.lua).
-- KEYS[1] epoch, KEYS[2] the server it was declared on, KEYS[3] horizon, KEYS[4] next epoch, KEYS[5] the server the
-- next epoch is built on
-- Returns the epoch taken away ('up to ' and the horizon when only that was, 'rebuild ' and the next epoch when only
-- that was), or nil when it stands or there is none.
local here = server_id()
local epoch = redis.call('GET', KEYS[1])
local horizon = redis.call('GET', KEYS[3])
local next_epoch = redis.call('GET', KEYS[4])
local declared_elsewhere = (epoch or horizon) and redis.call('GET', KEYS[2]) ~= here
local begun_elsewhere = next_epoch and redis.call('GET', KEYS[5]) ~= here
if not declared_elsewhere and not begun_elsewhere then
  return false
end
if declared_elsewhere then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
end
if horizon or begun_elsewhere then
  redis.call('DEL', KEYS[4], KEYS[5])
end
if declared_elsewhere then
  return epoch or ('up to ' .. horizon)
end
return 'rebuild ' .. next_epoch
