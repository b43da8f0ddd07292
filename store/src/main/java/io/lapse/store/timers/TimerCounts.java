package io.lapse.store.timers;

/**
 * What Redis holds: orders watched now and those overdue (deadline more than {@link #OVERDUE_GRACE_MS} ms past and
 * not fired).
 *
 * @param overdue        null where the timer mode cannot tell (ttl mode: Redis alone knows when a key expires)
 * @param oldestDeadline the earliest overdue deadline (epoch ms), null when none is overdue or it cannot be told
 * @param shardsWithoutEpoch shards the compensator has not declared rebuilt: the timer fires nothing from them
 */
public record TimerCounts(long watched, Long overdue, Long oldestDeadline, int shardsWithoutEpoch) {

    /** A deadline this recent is being fired as we look (fire lateness is milliseconds), not forgotten. */
    public static final long OVERDUE_GRACE_MS = 1_000;
}
