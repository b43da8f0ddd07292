-- Reads what one shard knows of some orders, in one consistent snapshot.
-- KEYS[1] due, KEYS[2] state (see arm.lua); ARGV: orderIds
-- Returns {states, scores}, each aligned with ARGV, nil where absent.
local states = redis.call('HMGET', KEYS[2], unpack(ARGV))
local scores = redis.call('ZMSCORE', KEYS[1], unpack(ARGV))
return {states, scores}
