-- zset mode: claims the due orders of one shard with a lease: each claimed order's score moves to now + lease, so
-- that an expiry whose publish is never acknowledged fires again, with the same (orderId, deadline, attempt), once
-- the lease has passed. "now" is Redis's clock, shared by every timer instance.
-- While the shard has no epoch, a rebuild is under way: it fires only what the rebuild has written, up to the horizon
-- the rebuild declared (epoch-horizon.lua), and nothing before that.
-- An epoch or horizon declared on another server than this one vouches for nothing (see declared_here).
-- KEYS[1] due, KEYS[2] state (see arm.lua), KEYS[3] epoch (the compensator's marker that the shard's data is whole),
-- KEYS[4] the horizon of the rebuild under way, KEYS[5] the server the epoch or horizon was declared on
-- ARGV[1] watermark ms: only deadlines at or before it are due; ARGV[2] lease ms; ARGV[3] most orders to claim;
-- ARGV[4] ttl ms; ARGV[5] max attempts; ARGV[6] ttl mode's (see ttl-claim.lua); ARGV[7] retry ms: how soon to look
-- again at due orders the rebuild has not written yet; ARGV[8] and on: orders not to claim whatever their deadline
-- (the timer, standing in for an absent ingest, found records of theirs unread: IngestStandIn)
-- Returns {now, next score or '' when the shard is empty, the claims}: one string, every claim's orderId, lastSeen,
-- attempt, deadline and source joined by tabs (PackedClaims reads it; no orderId holds a control character). One
-- string rather than five per claim: in a storm, reading Redis's replies took a tenth of the timer's CPU samples.
local due, state = KEYS[1], KEYS[2]
local horizon = false
if redis.call('EXISTS', KEYS[3]) == 0 then
  horizon = redis.call('GET', KEYS[4])
  if not horizon then
    return {fmt(now_ms()), '', ''} -- Redis lost its data: nothing fires until the compensator's rebuild vouches for it
  end
  horizon = tonumber(horizon)
end
if not declared_here(KEYS[5]) then
  return {fmt(now_ms()), '', ''} -- another server's data: nothing fires until the fence and a rebuild
end
keep_hash_table(state)
local now = now_ms()
local limit = math.min(now, tonumber(ARGV[1]))
if horizon then
  limit = math.min(limit, horizon)
end

-- What the timer should look at next: the shard's earliest score. During a rebuild, an order due by the limit that is
-- still there was not written by the rebuild (it is retried shortly), and past the horizon nothing fires until the
-- epoch is declared, which wakes the timer.
local function next_due()
  local head = redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')[2]
  if not horizon or not head then
    return head or ''
  elseif tonumber(head) <= limit then
    return fmt(now + tonumber(ARGV[7]))
  elseif tonumber(head) > horizon then
    return ''
  end
  return head
end
local lease, ttl, max_attempts = tonumber(ARGV[2]), tonumber(ARGV[4]), tonumber(ARGV[5])

-- During a rebuild, an order the rebuild has not written stays where it is: the claim looks past such orders, a few
-- batches deep at most, so that more than a batch of them cannot hold back the written ones behind until the epoch.
-- Without a state entry, an order is one the rebuild has not written (it writes one for every watched order): ingest
-- armed it, maybe from a replayed old status whose expiry the mirror knows was published.
-- The orders not to claim stay where they are too, and are looked past the same way.
local REBUILD_PAGES = 20 -- batches looked at during a rebuild: a few milliseconds of Redis at the largest batch
local batch = tonumber(ARGV[3])
local unread = {}
for i = 8, #ARGV do
  unread[ARGV[i]] = true
end
local looking_past = horizon or #ARGV >= 8
local ids, scores, states = {}, {}, {}
local offset = 0
for _ = 1, looking_past and REBUILD_PAGES or 1 do
  local page = redis.call('ZRANGEBYSCORE', due, '-inf', limit, 'WITHSCORES', 'LIMIT', offset, batch)
  local page_ids = {}
  for i = 2, #page, 2 do
    page_ids[i / 2] = page[i - 1]
  end
  if #page_ids == 0 then
    break
  end
  local page_states = read_states(state, page_ids)
  for i, id in ipairs(page_ids) do
    if #ids < batch and (page_states[i] or not horizon) and not unread[id] then
      ids[#ids + 1] = id
      scores[#ids] = tonumber(page[i * 2])
      states[#ids] = page_states[i]
    end
  end
  if #page_ids < batch or #ids >= batch then
    break
  end
  offset = offset + batch
end
if #ids == 0 then
  return {fmt(now), next_due(), ''}
end

-- at most three writes for the whole batch: a storm claims thousands of orders a second
local leased_until = fmt(now + lease)
local out, leases, entries, dropped = {}, {}, {}, {}
for i, id in ipairs(ids) do
  local score = scores[i]
  local st = states[i]
  local s = parse_state(st)
  local seen, attempt, deadline, source
  if not st then
    seen, attempt, deadline, source = score - ttl, 1, score, 't'
  elseif s and s.phase == 'L' then
    -- the lease of an unacknowledged claim ran out: the same expiry again
    seen, attempt, deadline, source = s.seen, s.attempt, s.deadline, s.source
  elseif s and s.phase == 'A' then
    seen, attempt, deadline, source = s.seen, s.attempt + 1, score, 't'
  elseif s and s.phase == 'R' then
    seen, attempt, deadline, source = s.seen, 1, score, 'c'
  end
  if not attempt or attempt > max_attempts then
    -- a finished or given-up order, or max attempts lowered since: nothing more to fire
    dropped[#dropped + 1] = id
  else
    local seen_ms, attempt_no, deadline_ms = fmt(seen), fmt(attempt), fmt(deadline)
    leases[#leases + 1] = leased_until
    leases[#leases + 1] = id
    entries[#entries + 1] = id
    entries[#entries + 1] = format_state('L', seen_ms, attempt_no, deadline_ms, source)
    out[#out + 1] = id
    out[#out + 1] = seen_ms
    out[#out + 1] = attempt_no
    out[#out + 1] = deadline_ms
    out[#out + 1] = source
  end
end
call_in_chunks('ZREM', due, nil, dropped, #dropped)
call_in_chunks('ZADD', due, nil, leases, #leases)
call_in_chunks('HSET', state, nil, entries, #entries)
return {fmt(now), next_due(), table.concat(out, '\t')}
