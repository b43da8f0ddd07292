-- Declares one shard rebuilt: its epoch becomes the generation, and the timer may fire from it again (and is woken).
-- If the next-epoch key is gone, Redis lost data since the rebuild began: the shard is not declared, unless another
-- rebuilder of the same generation already did. Nor is it declared on another server than the one the generation
-- began on: a failover since may have lost part of the rebuild's writes. The rebuild's horizon (epoch-horizon.lua) has
-- served its turn.
-- KEYS[1] epoch, KEYS[2] next epoch, KEYS[3] the server the epoch is declared on, KEYS[4] horizon, KEYS[5] the server
-- the next epoch is built on; ARGV[1] generation, ARGV[2] wake channel, ARGV[3] shard
-- Returns 1 when the shard's epoch is the generation, 0 when it must be rebuilt again.
local here = server_id()
if redis.call('GET', KEYS[2]) == ARGV[1] and redis.call('GET', KEYS[5]) == here then
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('SET', KEYS[3], here)
  redis.call('DEL', KEYS[2], KEYS[4], KEYS[5])
  redis.call('PUBLISH', ARGV[2], ARGV[3])
  return 1
end
if redis.call('GET', KEYS[1]) == ARGV[1] and redis.call('GET', KEYS[3]) == here then
  return 1
end
return 0
