package io.lapse.store.timers.internal;

import io.lapse.store.timers.ShardCensus.OverdueOrder;

/**
 * A mode's count of one shard's timers, for {@code ShardCensus}.
 *
 * @param oldest the longest overdue timer, or null when none is
 */
public record ShardTally(long watched, long overdue, OverdueOrder oldest) {}
