package io.lapse.compensator.rebuild;

import java.time.Duration;
import java.util.Locale;

/**
 * Where a full rebuild's time went, for on-call's log line: only the orders due soon fire before the rebuild is done,
 * so which part grew is what to look at when it takes long.
 *
 * @param catchUp   waiting for the compensator to process what was published before the rebuild began
 * @param open      opening the mirror (partitions and offsets)
 * @param read      reading and decoding the mirror, apart from handing it to the writer
 * @param encode    turning the mirror's orders into timer images and script arguments
 * @param redisWait waiting for Redis to write what was handed to it
 * @param declare   declaring the shards rebuilt up to the first pass's horizon, and their epochs
 * @param firstPass from the rebuild's start until the orders due within the first pass's horizon could fire: when the
 *                  first pass was declared, or the epoch when it left nothing to a second pass (not a phase of its
 *                  own: it spans the others' first parts)
 */
record RebuildPhases(
        Duration catchUp,
        Duration open,
        Duration read,
        Duration encode,
        Duration redisWait,
        Duration declare,
        Duration firstPass) {

    /** A rebuild postponed after waiting this long for the compensator to catch up. */
    static RebuildPhases caughtUpOnly(Duration catchUp) {
        return new RebuildPhases(
                catchUp, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);
    }

    RebuildPhases {
        for (Duration phase : new Duration[] {catchUp, open, read, encode, redisWait, declare, firstPass}) {
            if (phase == null || phase.isNegative()) {
                throw new IllegalArgumentException("a rebuild's phase takes no negative time: " + phase);
            }
        }
    }

    /**
     * E.g. {@code caught up 4.1 s, mirror opened 0.1 s, read 6.0 s, encoded 0.8 s, Redis 3.0 s, declared 0.0 s; due
     * soon firing after 5.2 s}.
     */
    String describe() {
        return String.format(
                Locale.ROOT,
                "caught up %.1f s, mirror opened %.1f s, read %.1f s, encoded %.1f s, Redis %.1f s, declared %.1f s; "
                        + "due soon firing after %.1f s",
                seconds(catchUp),
                seconds(open),
                seconds(read),
                seconds(encode),
                seconds(redisWait),
                seconds(declare),
                seconds(firstPass));
    }

    private static double seconds(Duration phase) {
        return phase.toMillis() / 1000.0;
    }
}
