-- Declares one shard rebuilt up to a moment while its rebuild goes on: every finished and given-up mark and every
-- watched order due by then is written, so the timer may fire the shard's orders due by then that the rebuild wrote
-- (see claim.lua), and is woken. Only the running generation declares it: a loss since the rebuild began took the
-- next-epoch key, and this horizon, with it. Two rebuilders of one generation each wrote everything up to their own
-- moment, so the later one stands. Nor is it declared on another server than the one the generation began on: a
-- failover since may have lost part of the rebuild's writes (epoch-fence.lua takes the generation away).
-- KEYS[1] next epoch, KEYS[2] horizon, KEYS[3] the server the shard's epoch is declared on, KEYS[4] the server the
-- next epoch is built on; ARGV[1] generation, ARGV[2] horizon ms, ARGV[3] wake channel, ARGV[4] shard
-- Returns 1 when the shard's horizon is declared (or a later one stands), 0 when it must wait for its epoch.
local here = server_id()
if redis.call('GET', KEYS[1]) ~= ARGV[1] or redis.call('GET', KEYS[4]) ~= here then
  return 0
end
local server = redis.call('GET', KEYS[3])
if server and server ~= here then
  return 0 -- declared on another server that may hold writes this one lacks: epoch-fence.lua takes it all away
end
local standing = redis.call('GET', KEYS[2])
if not standing or tonumber(standing) < tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], ARGV[2])
  redis.call('SET', KEYS[3], here)
  redis.call('PUBLISH', ARGV[3], ARGV[4])
end
return 1
