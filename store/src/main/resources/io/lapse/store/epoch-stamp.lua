-- Sets a shard's epoch without a rebuild, on this server (see RedisEpochs.stamp).
-- KEYS[1] epoch, KEYS[2] the server the epoch is declared on; ARGV[1] epoch
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], server_id())
return 1
