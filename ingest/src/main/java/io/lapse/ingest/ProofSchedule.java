package io.lapse.ingest;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * When ingest asks the broker for its caught-up proof. A proof asked at t lets the timer fire deadlines up to t (less
 * the slack), so it is worth asking for often only while some deadline is near: from {@link #LEAD} before the earliest
 * score of the timer's due sets, every {@link #QUICK}, until the due sets show nothing that near any more. Otherwise
 * once every {@link #AT_REST}, so that the watermark of a partition nobody writes to (the pulled topic of a
 * deployment whose orders all push) stays within a second of the clock and never reads as stale. A deployment at rest
 * asks about once a second rather than 50 times.
 *
 * <p>The earliest due score is read by {@link DueLook}; used from any thread.
 */
final class ProofSchedule {

    /*
     * How far a partition's mark trails the clock, beyond the answer's round trip, while a deadline is near: part of
     * every silent order's lateness (docs/benchmarks.md). Each question is one ListOffsets and one
     * DescribeTopicPartitions request, both answered from the broker's memory, and costs about 1.2 ms of CPU between
     * ingest and the broker: at 5 ms, 0.22 cores whenever any deadline is near, which at scale is always, for about
     * 7 ms of lateness at p50 that nobody can tell (issue 40, docs/benchmarks.md).
     */
    static final Duration QUICK = Duration.ofMillis(20);
    /** At rest: the watermark stays this fresh, and the partition counts are asked this often. */
    static final Duration AT_REST = Duration.ofSeconds(1);
    /*
     * Asking quickly starts this long before the earliest due score, so that the watermark is fresh when the timer
     * wakes for it (the timer looks at a trailing watermark again after a twentieth of its age: a watermark a second
     * old would cost it 50 ms), and so that ingest's loop, which waits for records up to a tenth of a second, has
     * taken the first answers before the deadline.
     */
    static final Duration LEAD = Duration.ofMillis(200);
    /** How often the due sets are read while asking quickly: their earliest score moves as the timer fires. */
    static final Duration LOOK_QUICK = Duration.ofMillis(100);

    private volatile long earliestDue = Long.MAX_VALUE;

    /** What the latest look at the due sets found; empty when they are all empty. */
    void earliestDue(OptionalLong due) {
        earliestDue = due.orElse(Long.MAX_VALUE);
    }

    /** Whether some deadline is near at {@code now}: questions go every {@link #QUICK}. */
    boolean quick(long now) {
        return now >= quickFrom();
    }

    /** When the next question is due, after one asked at {@code lastAsked}. */
    long nextAsk(long lastAsked) {
        return Math.min(lastAsked + AT_REST.toMillis(), Math.max(quickFrom(), lastAsked + QUICK.toMillis()));
    }

    /** When the due sets are to be read again, after a look at {@code lastLooked}. */
    long nextLook(long lastLooked) {
        long quickly = lastLooked + LOOK_QUICK.toMillis();
        return quick(quickly) ? quickly : Math.min(lastLooked + AT_REST.toMillis(), Math.max(quickly, quickFrom()));
    }

    private long quickFrom() {
        long due = earliestDue;
        return due == Long.MAX_VALUE ? Long.MAX_VALUE : due - LEAD.toMillis();
    }
}
