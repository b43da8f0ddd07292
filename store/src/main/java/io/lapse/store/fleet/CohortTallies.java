package io.lapse.store.fleet;

import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.internal.LuaScript;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The pushes per cohort every ingest instance read, summed in Redis per span of time: each instance sees only the
 * push partitions it reads, and a cohort's orders are spread over all of them, so a cohort's rate is the sum of what
 * every instance adds to a span. A span is a hash with a field per cohort and kind of status, kept for as long as
 * a baseline and a window need it; an instance adds to it once, in one script, after the span is over.
 */
public final class CohortTallies {

    private static final LuaScript COUNT = LuaScript.named("cohort-count");
    private static final String ALL_PUSHES = "pushes";
    private static final String ALL_FINISHED = "finished";
    private static final String PUSHES = "p:";
    private static final String FINISHED = "f:";

    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;

    public CohortTallies(RedisConnection connection, TimerKeys keys) {
        this.redis = connection.async();
        this.keys = keys;
    }

    /** Adds one instance's counts to the span's, which Redis keeps for {@code keep}. */
    public CompletableFuture<Void> add(CohortSpan span, Duration keep) {
        List<String> args = new ArrayList<>(4 + 4 * span.cohorts().size());
        args.add(Long.toString(keep.toMillis()));
        addField(args, ALL_PUSHES, span.all().pushes());
        addField(args, ALL_FINISHED, span.all().finished());
        span.cohorts().forEach((cohort, count) -> {
            addField(args, PUSHES + cohort, count.pushes());
            addField(args, FINISHED + cohort, count.finished());
        });
        return COUNT.<Long>run(
                        redis,
                        ScriptOutputType.INTEGER,
                        new String[] {keys.cohortCounts(span.start())},
                        args.toArray(String[]::new))
                .thenApply(done -> null);
    }

    /** The span's counts summed over every instance; empty when none added to it (or Redis lost it). */
    public CompletableFuture<CohortSpan> read(long start) {
        return redis.hgetall(keys.cohortCounts(start)).toCompletableFuture().thenApply(fields -> span(start, fields));
    }

    private static void addField(List<String> args, String field, long count) {
        if (count != 0) {
            args.add(field);
            args.add(Long.toString(count));
        }
    }

    private static CohortSpan span(long start, Map<String, String> fields) {
        Map<String, long[]> cohorts = new HashMap<>();
        long pushes = 0;
        long finished = 0;
        for (Map.Entry<String, String> field : fields.entrySet()) {
            long count = parse(field.getValue());
            String name = field.getKey();
            if (name.equals(ALL_PUSHES)) {
                pushes = count;
            } else if (name.equals(ALL_FINISHED)) {
                finished = count;
            } else if (name.startsWith(PUSHES)) {
                cohorts.computeIfAbsent(name.substring(PUSHES.length()), c -> new long[2])[0] = count;
            } else if (name.startsWith(FINISHED)) {
                cohorts.computeIfAbsent(name.substring(FINISHED.length()), c -> new long[2])[1] = count;
            }
        }
        Map<String, CohortSpan.Count> counts = new HashMap<>();
        cohorts.forEach((cohort, c) -> counts.put(cohort, new CohortSpan.Count(c[0], c[1])));
        return new CohortSpan(start, new CohortSpan.Count(pushes, finished), counts);
    }

    private static long parse(String count) {
        try {
            return Long.parseLong(count);
        } catch (NumberFormatException e) {
            return 0; // not written by Lapse
        }
    }
}
