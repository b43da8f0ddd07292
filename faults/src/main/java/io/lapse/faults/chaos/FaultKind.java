package io.lapse.faults.chaos;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the chaos schedule can strike with, each in a family that {@code --faults} can name as a whole. Each strikes
 * one {@link Target} and keeps it busy for a while, during which no other strike picks it: an instance is not killed
 * while it is still starting after the last kill, Redis is not flushed while a promotion is under way.
 */
public enum FaultKind {
    /** kill -9 of one instance, started again after the drawn time. */
    KILL("kill", Target.INSTANCE, 1_000, 5_000, 15_000),
    /** kill -STOP of one instance for the drawn time, then kill -CONT. */
    FREEZE("freeze", Target.INSTANCE, 2_000, 9_000, 0),
    /** SIGTERM of one instance, a wait until it has ended, and a start after the drawn time. */
    TERM("restart", Target.INSTANCE, 0, 2_000, 20_000),
    /** Redis (the master) restarted without persistence: every key lost. */
    REDIS_RESTART("redis", Target.REDIS, 0, 0, 10_000),
    /** FLUSHALL on the master. */
    FLUSHALL("redis", Target.REDIS, 0, 0, 10_000),
    /** Every due set (one sorted set per timer shard) deleted, the rest of Redis kept: a partial loss. */
    DUE_SETS("redis", Target.REDIS, 0, 0, 10_000),
    /**
     * The replica's link to the master stalled for the drawn time while Lapse writes on, then the replica promoted and
     * Lapse's link moved to it: Redis serves older data than Lapse wrote (the stale-replica case).
     */
    PROMOTE("redis", Target.REDIS, 1_000, 5_000, 10_000),
    /** Every byte between Lapse and the broker held for the drawn time. */
    BROKER_STALL("link", Target.BROKER_LINK, 2_000, 8_000, 0),
    /** Every byte between Lapse and Redis held for the drawn time. */
    REDIS_STALL("link", Target.REDIS_LINK, 2_000, 8_000, 0),
    /** Upstream answers every status request 503 for the drawn time. */
    UPSTREAM_503("upstream", Target.UPSTREAM, 5_000, 15_000, 0),
    /** Upstream answers every status request 200 with a body that is not a status, for the drawn time. */
    UPSTREAM_GARBAGE("upstream", Target.UPSTREAM, 5_000, 15_000, 0),
    /** Upstream answers every status request 401 (a rotated token), for the drawn time. */
    UPSTREAM_401("upstream", Target.UPSTREAM, 5_000, 15_000, 0),
    /** Upstream answers every status request after {@link #SLOW_ANSWER}, for the drawn time. */
    UPSTREAM_SLOW("upstream", Target.UPSTREAM, 5_000, 15_000, 0),
    /** One bad record of every kind the poison scenario knows, on the push topic: each must become one dead letter. */
    POISON("poison", Target.PUSH_TOPIC, 0, 0, 0);

    /** What a strike acts on; a strike picks one of its kind that no other strike keeps busy. */
    public enum Target {
        INSTANCE,
        REDIS,
        BROKER_LINK,
        REDIS_LINK,
        UPSTREAM,
        PUSH_TOPIC
    }

    /** How long upstream takes to answer in an {@link #UPSTREAM_SLOW} window. */
    public static final long SLOW_ANSWER = 3_000;

    /** e.g. {@code kill}, {@code link}: what {@code --faults} accepts besides the kinds' own names. */
    public final String family;

    public final Target target;
    /** Bounds of the duration a strike draws (ms): a freeze's, a down time, a window; 0 and 0 for none. */
    final long shortest;

    final long longest;
    /** How long after its duration the strike keeps its target busy: a restarted instance's start, say. */
    final long busyAfter;

    FaultKind(String family, Target target, long shortest, long longest, long busyAfter) {
        this.family = family;
        this.target = target;
        this.shortest = shortest;
        this.longest = longest;
        this.busyAfter = busyAfter;
    }

    /** The name the command line and the schedule use, e.g. {@code upstream-503}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @param names kinds ({@code kill}, {@code upstream-503}), families ({@code redis}, {@code link}) or {@code all}
     * @throws IllegalArgumentException naming what there is, for a name that is neither
     */
    public static Set<FaultKind> parse(List<String> names) {
        Set<FaultKind> chosen = EnumSet.noneOf(FaultKind.class);
        for (String raw : names) {
            String name = raw.strip().toLowerCase(Locale.ROOT);
            List<FaultKind> matching = name.equals("all")
                    ? List.of(values())
                    : Arrays.stream(values())
                            .filter(kind -> kind.label().equals(name) || kind.family.equals(name))
                            .toList();
            if (matching.isEmpty()) {
                throw new IllegalArgumentException("no fault kind or family '" + raw + "'; there are: all, "
                        + families() + ", "
                        + Arrays.stream(values()).map(FaultKind::label).collect(Collectors.joining(", ")));
            }
            chosen.addAll(matching);
        }
        return chosen;
    }

    static String families() {
        return Arrays.stream(values()).map(kind -> kind.family).distinct().collect(Collectors.joining(", "));
    }
}
