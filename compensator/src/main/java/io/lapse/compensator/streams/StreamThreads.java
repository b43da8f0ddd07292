package io.lapse.compensator.streams;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether the compensator's stream threads all live. A thread that failed is replaced at once, but while it is gone,
 * and for a while after, the mirror falls behind its topics (its tasks restore and reprocess); a thread that keeps
 * failing keeps the compensator not ready.
 */
final class StreamThreads {

    private final Clock clock;
    private final Duration settle;
    private final AtomicLong lastFailure = new AtomicLong(Long.MIN_VALUE);

    /** @param settle how long after a thread failed the compensator is not ready */
    StreamThreads(Clock clock, Duration settle) {
        this.clock = clock;
        this.settle = settle;
    }

    void failed() {
        lastFailure.set(clock.millis());
    }

    boolean healthy(long alive, int expected) {
        long last = lastFailure.get();
        return alive >= expected && (last == Long.MIN_VALUE || clock.millis() - last >= settle.toMillis());
    }
}
