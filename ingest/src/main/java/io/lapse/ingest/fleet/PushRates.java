package io.lapse.ingest.fleet;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * How fast producers write to each push partition, from readings of the broker's end offsets: the rate over the last
 * window, and over the baseline span before it. The end offsets move whether or not ingest reads, so a rate that
 * falls means the producers went quiet, never that ingest fell behind.
 */
final class PushRates {

    private record Reading(long at, long end) {}

    private final long window;
    private final long baseline;
    private final Map<Integer, Deque<Reading>> readings = new HashMap<>();

    PushRates(Duration window, Duration baseline) {
        this.window = window.toMillis();
        this.baseline = baseline.toMillis();
    }

    /** Adds one reading of the topic's end offsets, by partition, and forgets what no rate needs any more. */
    void read(long at, Map<Integer, Long> ends) {
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
