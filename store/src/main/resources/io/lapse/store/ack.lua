-- Acknowledges expiries that Kafka has accepted: the order's next repeat is due at firedAt + repeat, or, after the
-- last attempt, the order is given up. A claim that a newer status, an end or another claim replaced is left alone.
-- Both timer modes: in ttl mode the next repeat is the order's trigger key expiring, and the due set is not used.
-- KEYS[1] due, KEYS[2] state, KEYS[3] ended (see arm.lua)
-- ARGV[1] repeat ms, ARGV[2] max attempts, ARGV[3] trigger key prefix ('' in zset mode),
-- ARGV[4] the expiries: every expiry's orderId, attempt, deadline and firedAt joined by tabs (PackedClaims writes it;
-- no orderId holds a control character). One argument rather than four per expiry: in a storm, encoding them took a
-- sixth of the timer's CPU samples.
-- Returns the number of expiries acknowledged.
local due, state, ended = KEYS[1], KEYS[2], KEYS[3]
keep_hash_table(state)
local repeat_ms, max_attempts, trigger = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local zset = is_zset_mode(trigger)
local fields = {}
for field in string.gmatch(ARGV[4] or '', '[^\t]+') do
  fields[#fields + 1] = field
end
local ids = {}
for i = 1, #fields, 4 do
  ids[#ids + 1] = fields[i]
end
if #ids == 0 then
  return 0
end

-- one read and a few writes for the whole batch: a storm acknowledges thousands of expiries a second
local states = read_states(state, ids)
local now = now_ms()
local ended_at = fmt(now)
local acked, done = 0, {}
local entries, repeats, given_up, ends = {}, {}, {}, {}
for k, id in ipairs(ids) do
  local i = (k - 1) * 4 + 1
  local attempt, deadline, fired_at = tonumber(fields[i + 1]), tonumber(fields[i + 2]), tonumber(fields[i + 3])
  local s = parse_state(states[k])
  -- an order acknowledged earlier in this batch is no longer leased
  if not done[id] and s and s.phase == 'L' and s.attempt == attempt and s.deadline == deadline then
    done[id] = true
    entries[#entries + 1] = id
    if s.attempt >= max_attempts then
      entries[#entries + 1] = format_state('G', s.seen, s.attempt, s.deadline, s.source)
      ends[#ends + 1] = ended_at
      ends[#ends + 1] = id
      if zset then
        given_up[#given_up + 1] = id
      else
        redis.call('DEL', trigger .. id)
      end
    elseif zset then
      repeats[#repeats + 1] = fmt(fired_at + repeat_ms)
      repeats[#repeats + 1] = id
      entries[#entries + 1] = format_state('A', s.seen, s.attempt, s.deadline, s.source)
    else
      -- a trigger in the past would vanish without a notification
      local next = math.max(fired_at + repeat_ms, now + 1)
      entries[#entries + 1] = format_state('A', s.seen, s.attempt, next, 't')
      redis.call('SET', trigger .. id, '1', 'PXAT', fmt(next))
    end
    acked = acked + 1
  end
end
call_in_chunks('HSET', state, nil, entries, #entries)
call_in_chunks('ZADD', ended, nil, ends, #ends)
call_in_chunks('ZREM', due, nil, given_up, #given_up)
call_in_chunks('ZADD', due, 'XX', repeats, #repeats)
return acked
