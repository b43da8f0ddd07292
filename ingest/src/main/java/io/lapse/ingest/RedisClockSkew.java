package io.lapse.ingest;

import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far ingest's clock runs ahead of Redis's (negative: behind). Ingest stamps its end-offset proofs and caps its
 * marks with its own clock, while the timer compares marks with Redis's: ingest ahead by more than
 * timer.watermark-slack lets the timer fire orders whose pushes ingest has not applied yet; behind, it only adds
 * lateness. Measured every {@link #INTERVAL_MS} from the middle of a {@code TIME} round trip, without waiting for it.
 */
final class RedisClockSkew {

    private static final Logger log = LoggerFactory.getLogger(RedisClockSkew.class);

    static final long INTERVAL_MS = 10_000;

    private final Supplier<CompletableFuture<Long>> redisNow;
    private final Clock clock;
    private final long slackMillis;
    private final AtomicLong skew = new AtomicLong();
    private long askedAt = Long.MIN_VALUE / 2;
    private volatile boolean beyondSlack;

    /** @param slackMillis timer.watermark-slack: a skew beyond it is logged, and alerted on */
    RedisClockSkew(Supplier<CompletableFuture<Long>> redisNow, Clock clock, long slackMillis) {
        this.redisNow = redisNow;
        this.clock = clock;
        this.slackMillis = slackMillis;
    }

    /** On the ingest loop: starts a measurement when the last one is {@link #INTERVAL_MS} old. */
    void askIfDue() {
        long sentAt = clock.millis();
        if (sentAt - askedAt < INTERVAL_MS) {
            return;
        }
        askedAt = sentAt;
        // a Redis that does not answer is reported by readiness and lapse_redis_unanswered_seconds, not here
        redisNow.get().thenAccept(redis -> observed(sentAt, clock.millis(), redis));
    }

    void observed(long sentAt, long answeredAt, long redisNow) {
        long measured = sentAt + (answeredAt - sentAt) / 2 - redisNow;
        skew.set(measured);
        boolean beyond = Math.abs(measured) > slackMillis;
        if (beyond && !beyondSlack) {
            log.warn(
                    "ingest's clock is {} ms {} Redis's, more than timer.watermark-slack ({} ms): {}; synchronise the "
                            + "hosts' clocks (NTP)",
                    Math.abs(measured),
                    measured > 0 ? "ahead of" : "behind",
                    slackMillis,
                    measured > 0
                            ? "the timer may fire orders whose pushes ingest has not applied yet"
                            : "expiries fire that much later");
        }
        beyondSlack = beyond;
    }

    /** The last measurement, ms; 0 before the first. */
    long millis() {
        return skew.get();
    }
}
