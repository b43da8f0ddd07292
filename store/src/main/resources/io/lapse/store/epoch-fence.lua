-- Takes a shard's epoch away when the server serving it now is not the one it was declared on. A restarted server, a
-- promoted replica that lagged and a restored snapshot keep the epoch but may lack writes made after their copy:
-- firing from such data fires again what was acknowledged, revives what finished, and with data older than the ttl
-- fires every re-armed order at once. Without its epoch the shard fires nothing until the compensator rebuilds it.
-- KEYS[1] epoch, KEYS[2] the server it was declared on
-- Returns the epoch taken away, or nil when it stands or there is none.
local epoch = redis.call('GET', KEYS[1])
if not epoch or redis.call('GET', KEYS[2]) == server_id() then
  return false
end
redis.call('DEL', KEYS[1], KEYS[2])
return epoch
