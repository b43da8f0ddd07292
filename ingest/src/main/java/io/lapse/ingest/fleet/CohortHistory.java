package io.lapse.ingest.fleet;

import io.lapse.store.fleet.CohortSpan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The fleet's and each cohort's pushes per span over the last baseline and window, as every ingest instance counted
 * them together (read back from Redis): a ring of counts per cohort, so that memory is bounded by {@code limit}
 * cohorts whatever the number of cohorts there are. When more cohorts push than that, the ones with the fewest pushes
 * per span are forgotten (never one whose silence is on); a forgotten cohort that comes back starts its history anew.
 * A span read again replaces what was read of it before, unless it holds less: then Redis lost it, and what was read
 * stands.
 */
final class CohortHistory {

    /**
     * The figures of one cohort (or of the whole fleet) at the end of the last window.
     *
     * @param finished the orders that finished since the baseline began, each weighted by the share of the baseline
     *     it pushed in (whole for one that finished in the window; none with a baseline frozen at a silence's start,
     *     where only the window's count): what the baseline holds of orders that no longer push, and are not silent
     * @param lowSince the first of the last spans in a row whose pushes were low enough to count as silent (the newest
     *     span when none was)
     * @param lowPushesPerSecond the pushes per second over the spans from lowSince on: what pushes while silent
     */
    record Figures(
            double pushesPerSecond,
            double finished,
            double baselinePushesPerSecond,
            long lowSince,
            double lowPushesPerSecond) {}

    private static final class Ring {
        final long[] pushes;
        final long[] finished;
        /** The first span it has counts of. */
        final long since;

        Ring(int slots, long since) {
            this.pushes = new long[slots];
            this.finished = new long[slots];
            this.since = since;
        }

        void clear(int slot) {
            pushes[slot] = 0;
            finished[slot] = 0;
        }

        void put(int slot, CohortSpan.Count count) {
            pushes[slot] = Math.max(pushes[slot], count.pushes());
            finished[slot] = Math.max(finished[slot], count.finished());
        }
    }

    private final long spanMillis;
    private final int windowSpans;
    private final int slots;
    private final int limit;
    private final Ring all;
    private final Map<String, Ring> cohorts = new HashMap<>();
    /** The start of the newest span held; {@link Long#MIN_VALUE} before the first. */
    private long newest = Long.MIN_VALUE;
    /** The start of the first span with any push in it: before it, nothing was counted. */
    private long countedFrom = Long.MAX_VALUE;

    /**
     * @param span   the length of one span of counts (a sixth of the window)
     * @param limit  the most cohorts held
     */
    CohortHistory(Duration window, Duration baseline, Duration span, int limit) {
        this.spanMillis = span.toMillis();
        this.windowSpans = (int) Math.max(1, window.toMillis() / spanMillis);
        this.slots = windowSpans + (int) Math.max(1, baseline.toMillis() / spanMillis);
        this.limit = limit;
        this.all = new Ring(slots, Long.MIN_VALUE);
    }

    long spanMillis() {
        return spanMillis;
    }

    /** The spans a window holds. */
    int windowSpans() {
        return windowSpans;
    }

    /** The spans the baseline and the window hold together: how far back a history reaches. */
    int spans() {
        return slots;
    }

    /** The start of the newest span held, if any. */
    Optional<Long> newest() {
        return newest == Long.MIN_VALUE ? Optional.empty() : Optional.of(newest);
    }

    int cohortCount() {
        return cohorts.size();
    }

    /**
     * Takes in one span's counts, summed over every instance.
     *
     * @param pinned cohorts never forgotten to make room (those whose silence is on)
     */
    void put(CohortSpan span, Set<String> pinned) {
        long start = span.start() - Math.floorMod(span.start(), spanMillis);
        if (newest != Long.MIN_VALUE && start <= newest - (long) slots * spanMillis) {
            return; // older than the history reaches
        }
        if (start > newest) {
            advanceTo(start);
        }
        int slot = slot(start);
        all.put(slot, span.all());
        span.cohorts().forEach((cohort, count) -> {
            Ring ring = cohorts.get(cohort);
            if (ring == null) {
                if (count.isEmpty()) {
                    return;
                }
                ring = new Ring(slots, start);
                cohorts.put(cohort, ring);
            }
            ring.put(slot, count);
        });
        if (!span.isEmpty()) {
            countedFrom = Math.min(countedFrom, start);
        }
        forgetBeyondLimit(pinned);
    }

    /** The whole fleet's figures; empty until a window and a window of baseline before it were counted. */
    Optional<Figures> fleet(double keptShare) {
        return figures(all, keptShare, Optional.empty());
    }

    /**
     * A cohort's figures, its baseline that of before its silence when one is on ({@code frozenBaseline}); empty
     * while its history is shorter than a window and a window of baseline before it, or when it is not held.
     *
     * @param keptShare a span whose pushes fall to this share of the baseline's counts as silent, for lowSince
     */
    Optional<Figures> cohort(String cohort, double keptShare, Optional<Double> frozenBaseline) {
        Ring ring = cohorts.get(cohort);
        return ring == null ? Optional.empty() : figures(ring, keptShare, frozenBaseline);
    }

    /**
     * A cohort's counts over the spans of the last window, the newest first; empty when it is not held or the window
     * was not counted whole.
     */
    List<CohortSpan.Count> window(String cohort) {
        Ring ring = cohorts.get(cohort);
        if (ring == null || newest == Long.MIN_VALUE) {
            return List.of();
        }
        long windowStart = windowStart();
        if (!countedWhole(ring, windowStart)) {
            return List.of();
        }
        List<CohortSpan.Count> counts = new ArrayList<>(windowSpans);
        for (long span = newest; span >= windowStart; span -= spanMillis) {
            int slot = slot(span);
            counts.add(new CohortSpan.Count(ring.pushes[slot], ring.finished[slot]));
        }
        return counts;
    }

    /** Cohorts held, the busiest first. */
    List<String> cohorts() {
        return cohorts.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<String, Ring> e) -> -perSpan(e.getValue())))
                .map(Map.Entry::getKey)
                .toList();
    }

    private Optional<Figures> figures(Ring ring, double keptShare, Optional<Double> frozenBaseline) {
        if (newest == Long.MIN_VALUE) {
            return Optional.empty();
        }
        long windowStart = windowStart();
        long baselineFrom = Math.max(Math.max(countedFrom, ring.since), newest - (long) (slots - 1) * spanMillis);
        int baselineSpans = (int) ((windowStart - baselineFrom) / spanMillis);
        if (frozenBaseline.isEmpty() && baselineSpans < windowSpans) {
            return Optional.empty();
        }
        if (!countedWhole(ring, windowStart)) {
            return Optional.empty();
        }
        long windowPushes = 0;
        long windowFinished = 0;
        for (int i = 0; i < windowSpans; i++) {
            int slot = slot(windowStart + i * spanMillis);
            windowPushes += ring.pushes[slot];
            windowFinished += ring.finished[slot];
        }
        double baseline;
        double finished = windowFinished;
        if (frozenBaseline.isPresent()) {
            baseline = frozenBaseline.get();
        } else {
            long baselinePushes = 0;
            for (int i = 1; i <= baselineSpans; i++) {
                int slot = slot(windowStart - i * spanMillis);
                baselinePushes += ring.pushes[slot];
                // an order that finished in this span pushed in the spans of the baseline before it
                finished += ring.finished[slot] * (baselineSpans - i + 0.5) / baselineSpans;
            }
            baseline = baselinePushes * 1000.0 / ((long) baselineSpans * spanMillis);
        }
        double perSpanThreshold = baseline * keptShare * spanMillis / 1000.0;
        long lowSince = newest + spanMillis;
        long lowPushes = 0;
        for (long span = newest; span >= windowStart; span -= spanMillis) {
            if (ring.pushes[slot(span)] > perSpanThreshold) {
                break;
            }
            lowSince = span;
            lowPushes += ring.pushes[slot(span)];
        }
        long lowSpans = Math.max(1, (newest + spanMillis - lowSince) / spanMillis);
        return Optional.of(new Figures(
                windowPushes * 1000.0 / ((long) windowSpans * spanMillis),
                finished,
                baseline,
                Math.min(lowSince, newest),
                lowSince > newest ? Double.NaN : lowPushes * 1000.0 / (lowSpans * spanMillis)));
    }

    /** The start of the oldest span of the last window. */
    private long windowStart() {
        return newest - (long) (windowSpans - 1) * spanMillis;
    }

    /** Whether the ring counted every span of the window from {@code windowStart} on. */
    private boolean countedWhole(Ring ring, long windowStart) {
        return windowStart >= Math.max(countedFrom, ring.since);
    }

    private void advanceTo(long start) {
        if (newest == Long.MIN_VALUE || start - newest >= (long) slots * spanMillis) {
            clearAll();
        } else {
            for (long span = newest + spanMillis; span <= start; span += spanMillis) {
                int slot = slot(span);
                all.clear(slot);
                cohorts.values().forEach(ring -> ring.clear(slot));
            }
        }
        newest = start;
    }

    private void clearAll() {
        Arrays.fill(all.pushes, 0);
        Arrays.fill(all.finished, 0);
        cohorts.clear();
        countedFrom = Long.MAX_VALUE;
    }

    private void forgetBeyondLimit(Set<String> pinned) {
        if (cohorts.size() <= limit) {
            return;
        }
        List<String> quietestFirst = cohorts.entrySet().stream()
                .filter(e -> !pinned.contains(e.getKey()))
                .sorted(Comparator.comparingDouble(e -> perSpan(e.getValue())))
                .map(Map.Entry::getKey)
                .toList();
        for (int i = 0; i < quietestFirst.size() && cohorts.size() > limit; i++) {
            cohorts.remove(quietestFirst.get(i));
        }
    }

    /** A cohort's pushes per span it was held, to tell the busiest from the rest. */
    private double perSpan(Ring ring) {
        long held = Math.max(
                1,
                Math.min(
                        slots,
                        (newest - Math.max(ring.since, newest - (long) (slots - 1) * spanMillis)) / spanMillis + 1));
        long sum = 0;
        for (long p : ring.pushes) {
            sum += p;
        }
        return (double) sum / held;
    }

    private int slot(long spanStart) {
        return (int) Math.floorMod(Math.floorDiv(spanStart, spanMillis), (long) slots);
    }
}
