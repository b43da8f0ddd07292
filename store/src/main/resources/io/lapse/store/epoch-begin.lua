-- Starts rebuilding one shard: names the epoch the shard will have once every rebuilder of this generation is done,
-- and the server it is built on. A rebuilder joins a generation already under way on this server, since nothing was
-- lost since it began (a loss would have taken this key with it); otherwise its candidate starts a new one. A
-- generation begun on another server (a master that failed over since, or was restarted from a snapshot) is not
-- joined: this server may lack the writes its rebuilders made there.
-- KEYS[1] the shard's next epoch, KEYS[2] the server it is built on; ARGV[1] candidate
-- Returns the generation to finish.
local server = server_id()
if redis.call('GET', KEYS[2]) ~= server then
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('SET', KEYS[2], server)
end
return redis.call('GET', KEYS[1])
