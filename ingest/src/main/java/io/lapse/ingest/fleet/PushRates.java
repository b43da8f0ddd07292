package io.lapse.ingest.fleet;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * How fast producers write to each push partition, from readings of the broker's end offsets: the rate over the last
 * window, and over the baseline span before it. The end offsets move whether or not ingest reads, so a rate that
 * falls means the producers went quiet, never that ingest fell behind. Once partitions are added to the topic, no rate
 * is known until {@link #KEYS_MOVE_WITHIN} later, and then a window and a baseline of one more.
 */
final class PushRates {

    /**
     * How long after partitions are added to the push topic its producers may still be moving keys to them: their
     * metadata refresh, five minutes by default both in librdkafka ({@code topic.metadata.refresh.interval.ms}) and in
     * the Java client ({@code metadata.max.age.ms}). Meanwhile every old partition loses about the share of its keys
     * the new ones gain, so no rate says whether producers stopped.
     */
    static final Duration KEYS_MOVE_WITHIN = Duration.ofMinutes(5);

    private record Reading(long at, long end) {}

    private final long window;
    private final long baseline;
    private final Map<Integer, Deque<Reading>> readings = new HashMap<>();
    private final Set<Integer> partitions = new HashSet<>();
    /** Until when keys may still be moving to partitions added to the topic. */
    private long keysSettleAt = Long.MIN_VALUE;

    PushRates(Duration window, Duration baseline) {
        this.window = window.toMillis();
        this.baseline = baseline.toMillis();
    }

    /** Adds one reading of the topic's end offsets, by partition, and forgets what no rate needs any more. */
    void read(long at, Map<Integer, Long> ends) {
        if (!partitions.isEmpty() && !partitions.containsAll(ends.keySet())) {
            keysSettleAt = at + KEYS_MOVE_WITHIN.toMillis();
        }
        partitions.addAll(ends.keySet());
        if (at < keysSettleAt) {
            // rates measure from the first reading after the keys settled: none spans a move
            readings.clear();
        }
        ends.forEach((partition, end) -> {
            Deque<Reading> partitionReadings = readings.computeIfAbsent(partition, p -> new ArrayDeque<>());
            partitionReadings.addLast(new Reading(at, end));
            // keep one reading at or before the spans' start, so that each span's rate is measured over its whole
            // length
            while (partitionReadings.size() > 2
                    && secondOldest(partitionReadings).at() <= at - window - baseline) {
                partitionReadings.removeFirst();
            }
        });
    }

    /** Pushes per second over the last window; empty until the readings span one. */
    OptionalDouble now(int partition) {
        Deque<Reading> partitionReadings = readings.get(partition);
        if (partitionReadings == null) {
            return OptionalDouble.empty();
        }
        Reading latest = partitionReadings.getLast();
        Reading windowStart = lastAtOrBefore(partitionReadings, latest.at() - window);
        return windowStart == null ? OptionalDouble.empty() : OptionalDouble.of(rate(windowStart, latest));
    }

    /**
     * Pushes per second over the baseline span before the last window; empty until the readings span at least one
     * window before it, so that a partition is judged only against a rate measured as long as the one it is
     * compared with.
     */
    OptionalDouble baseline(int partition) {
        Deque<Reading> partitionReadings = readings.get(partition);
        if (partitionReadings == null) {
            return OptionalDouble.empty();
        }
        Reading latest = partitionReadings.getLast();
        Reading windowStart = lastAtOrBefore(partitionReadings, latest.at() - window);
        Reading oldest = partitionReadings.getFirst();
        if (windowStart == null || windowStart.at() - oldest.at() < window) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(rate(oldest, windowStart));
    }

    private static Reading secondOldest(Deque<Reading> partitionReadings) {
        Iterator<Reading> oldestFirst = partitionReadings.iterator();
        oldestFirst.next();
        return oldestFirst.next();
    }

    private static Reading lastAtOrBefore(Deque<Reading> partitionReadings, long at) {
        Reading found = null;
        for (Reading reading : partitionReadings) {
            if (reading.at() > at) {
                break;
            }
            found = reading;
        }
        return found;
    }

    /** A topic deleted and created again starts its offsets anew: that span counts as no pushes, not negative ones. */
    private static double rate(Reading from, Reading to) {
        return Math.max(0, to.end() - from.end()) * 1000.0 / Math.max(1, to.at() - from.at());
    }
}
