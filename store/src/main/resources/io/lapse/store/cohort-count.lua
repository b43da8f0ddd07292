-- Adds one ingest instance's pushes of a span to the span's counts (see CohortTallies.add), and keeps the span for as
-- long as a baseline and a window need it.
-- KEYS[1] the span's hash; ARGV[1] how long to keep it, in ms; then pairs of a field and the pushes to add to it
for i = 2, #ARGV, 2 do
    redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
