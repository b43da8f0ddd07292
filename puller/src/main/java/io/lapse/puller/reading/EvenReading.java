package io.lapse.puller.reading;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import org.apache.kafka.common.TopicPartition;

/**
 * Keeps the partitions an instance reads level in time: a partition whose last expiry read was appended more than
 * {@code slack} after the last one read from the partition furthest behind is held back until that one catches up.
 * The consumer reads a backlog in runs of one partition at a time, for tens of seconds in a large storm (the 250,000-
 * and 500,000-order soaks of 2026-11-26: 18,000 pulls from two partitions in 20 s, under 900 from each of the others),
 * so the partitions read ahead reached the expiries a pull had re-armed, a ttl on, while the others still held orders
 * not pulled once: at 500,000 orders, 37,908 second pulls went before the last first one. Held level, the backlog is
 * read in the order the timer fired it, across partitions, and the pulls sorted together ({@link PullQueue}) put the
 * earliest silences first within that.
 *
 * <p>Only a partition with more to read holds the others back: one whose lag is 0 is caught up, and one that yielded
 * nothing for {@code stale} while it could be read (a lag that counts a transaction's marker, an offset it cannot
 * fetch) is not waited for. The partition furthest behind is never held, so reading always goes on. Used on the
 * consumer's thread only.
 */
public final class EvenReading {

    private final long slackMillis;
    private final long staleNanos;
    private final LongSupplier nanoTime;
    /** Per partition, the timestamp of the last record read. */
    private final Map<TopicPartition, Long> lastRead = new HashMap<>();
    /** Per partition, when it last yielded a record or became readable again (nanoTime). */
    private final Map<TopicPartition, Long> lastYield = new HashMap<>();

    public EvenReading(Duration slack, Duration stale, LongSupplier nanoTime) {
        if (slack.isNegative() || stale.isNegative() || stale.isZero()) {
            throw new IllegalArgumentException(
                    "slack must not be negative and stale must be positive, got " + slack + " and " + stale);
        }
        this.slackMillis = slack.toMillis();
        this.staleNanos = stale.toNanos();
        this.nanoTime = nanoTime;
    }

    /** A record of the partition was read; {@code timestamp} is its Kafka timestamp. */
    void read(TopicPartition partition, long timestamp) {
        lastRead.merge(partition, timestamp, Math::max);
        lastYield.put(partition, nanoTime.getAsLong());
    }

    /** The partitions may be read again after a pause: their silence since does not make them stale. */
    void readable(Collection<TopicPartition> partitions) {
        long now = nanoTime.getAsLong();
        for (TopicPartition partition : partitions) {
            lastYield.put(partition, now);
        }
    }

    /**
     * @param lag the records of a partition not read yet; negative when unknown
     * @return the partitions of {@code assigned} to hold back now
     */
    Set<TopicPartition> ahead(Collection<TopicPartition> assigned, ToLongFunction<TopicPartition> lag) {
        long now = nanoTime.getAsLong();
        long furthestBehind = Long.MAX_VALUE;
        for (TopicPartition partition : assigned) {
            if (hasMore(partition, lag, now)) {
                // one not read yet is furthest behind of all: the others wait for its first records
                furthestBehind = Math.min(furthestBehind, lastRead.getOrDefault(partition, Long.MIN_VALUE));
            }
        }
        if (furthestBehind == Long.MAX_VALUE) {
            return Set.of();
        }
        Set<TopicPartition> ahead = new HashSet<>();
        for (TopicPartition partition : assigned) {
            Long read = lastRead.get(partition);
            if (read != null && read - slackMillis > furthestBehind) {
                ahead.add(partition);
            }
        }
        return ahead;
    }

    private boolean hasMore(TopicPartition partition, ToLongFunction<TopicPartition> lag, long now) {
        if (lag.applyAsLong(partition) == 0) {
            return false;
        }
        // a partition not read yet is waited for from the first time it is asked about
        long yielded = lastYield.computeIfAbsent(partition, p -> now);
        return now - yielded < staleNanos;
    }
}
