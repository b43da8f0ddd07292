-- Starts rebuilding one shard: names the epoch the shard will have once every rebuilder of this generation is done.
-- A rebuilder joins a generation already under way, since nothing was lost since it began (a loss would have taken
-- this key with it); otherwise its candidate starts a new one.
-- KEYS[1] the shard's next epoch; ARGV[1] candidate
-- Returns the generation to finish.
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
