-- Takes or renews the lease of the one ingest instance that judges fleet silence (see FleetSilence.lead).
-- KEYS[1] the lease; ARGV[1] the instance asking, ARGV[2] the lease's length in ms
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    return 1
end
return 0
