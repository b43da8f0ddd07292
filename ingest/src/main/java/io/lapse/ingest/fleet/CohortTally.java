package io.lapse.ingest.fleet;

import io.lapse.store.fleet.CohortSpan;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts the pushes ingest reads per cohort, on ingest's own thread and without allocating per push: a push's cohort
 * is looked up by its bytes in an open-addressing table of at most {@code capacity} cohorts. Each span of time
 * ({@code fleet.window} / 6) is handed over whole once a poll is read after its end, to be summed in Redis with the
 * other instances' counts. Memory stays bounded whatever the number of cohort values: a cohort that finds the table
 * full is counted only in the whole fleet's pushes, and after each span the table keeps the busiest half of its
 * cohorts, so that a flood of rare values (an id put in the field by mistake) cannot keep a real cohort out.
 *
 * <p>Not thread-safe, apart from {@link #takeDone()}, which the fleet watch's thread calls.
 */
public final class CohortTally {

    /** Spans kept for the watch while it cannot write them (Redis away): two windows' worth. */
    private static final int MOST_DONE = 12;

    private final long spanMillis;
    private final int capacity;
    private final int mask;
    private final byte[][] names;
    private final String[] texts;
    private final int[] hashes;
    private final long[] pushes;
    private final long[] finished;
    private int size;
    private long spanStart = Long.MIN_VALUE;
    private long allPushes;
    private long allFinished;
    /** Written by ingest's thread alone, read by the metrics'. */
    private volatile long unplaced;

    private final Deque<CohortSpan> done = new ArrayDeque<>();

    /**
     * @param span     the length of a span of counts
     * @param capacity the most cohorts counted at once, per span
     */
    public CohortTally(java.time.Duration span, int capacity) {
        if (span.toMillis() < 1 || capacity < 1) {
            throw new IllegalArgumentException(
                    "a span of at least 1 ms and room for a cohort, not " + span + " and " + capacity);
        }
        this.spanMillis = span.toMillis();
        this.capacity = capacity;
        int slots = Integer.highestOneBit(capacity * 2 - 1) << 1;
        this.mask = slots - 1;
        this.names = new byte[slots][];
        this.texts = new String[slots];
        this.hashes = new int[slots];
        this.pushes = new long[slots];
        this.finished = new long[slots];
    }

    /** Closes the span in progress once {@code readTime} is past its end; ingest calls it for every poll. */
    public void at(long readTime) {
        long start = readTime - Math.floorMod(readTime, spanMillis);
        if (start == spanStart) {
            return;
        }
        if (spanStart != Long.MIN_VALUE && start > spanStart) {
            closeSpan();
        }
        if (start > spanStart) {
            spanStart = start;
        }
    }

    /** A push whose cohort is named by {@code source[from, to)}; {@code ended} for a terminal status. */
    public void count(byte[] source, int from, int to, boolean ended) {
        countAll(ended);
        int hash = hash(source, from, to);
        int slot = hash & mask;
        while (names[slot] != null) {
            byte[] name = names[slot];
            if (hashes[slot] == hash && Arrays.equals(name, 0, name.length, source, from, to)) {
                add(slot, ended);
                return;
            }
            slot = (slot + 1) & mask;
        }
        if (size == capacity) {
            unplaced++;
            return;
        }
        names[slot] = Arrays.copyOfRange(source, from, to);
        texts[slot] = new String(names[slot], StandardCharsets.UTF_8);
        hashes[slot] = hash;
        size++;
        add(slot, ended);
    }

    /** A push that names no cohort: it counts only in the whole fleet's pushes. */
    public void countWithoutCohort(boolean ended) {
        countAll(ended);
    }

    /** Pushes whose cohort found no room, since the tally began. */
    public long unplaced() {
        return unplaced;
    }

    /** The spans closed since the last call, oldest first; called by the fleet watch's thread. */
    public List<CohortSpan> takeDone() {
        synchronized (done) {
            List<CohortSpan> taken = new ArrayList<>(done);
            done.clear();
            return taken;
        }
    }

    private void countAll(boolean ended) {
        if (ended) {
            allFinished++;
        } else {
            allPushes++;
        }
    }

    private void add(int slot, boolean ended) {
        if (ended) {
            finished[slot]++;
        } else {
            pushes[slot]++;
        }
    }

    private void closeSpan() {
        Map<String, CohortSpan.Count> counts = new HashMap<>();
        List<Integer> counted = new ArrayList<>();
        for (int slot = 0; slot < names.length; slot++) {
            if (names[slot] != null && pushes[slot] + finished[slot] > 0) {
                counts.put(texts[slot], new CohortSpan.Count(pushes[slot], finished[slot]));
                counted.add(slot);
            }
        }
        CohortSpan span = new CohortSpan(spanStart, new CohortSpan.Count(allPushes, allFinished), counts);
        synchronized (done) {
            if (done.size() == MOST_DONE) {
                done.removeFirst();
            }
            done.addLast(span);
        }
        keepBusiest(counted);
        allPushes = 0;
        allFinished = 0;
    }

    /** Keeps the cohorts counted in the span, the busiest half of the table at most, and starts their counts anew. */
    private void keepBusiest(List<Integer> counted) {
        counted.sort((a, b) -> Long.compare(pushes[b] + finished[b], pushes[a] + finished[a]));
        List<Integer> kept = counted.subList(0, Math.min(counted.size(), Math.max(1, capacity / 2)));
        byte[][] keptNames = new byte[kept.size()][];
        String[] keptTexts = new String[kept.size()];
        int[] keptHashes = new int[kept.size()];
        for (int i = 0; i < kept.size(); i++) {
            int slot = kept.get(i);
            keptNames[i] = names[slot];
            keptTexts[i] = texts[slot];
            keptHashes[i] = hashes[slot];
        }
        Arrays.fill(names, null);
        Arrays.fill(texts, null);
        Arrays.fill(pushes, 0);
        Arrays.fill(finished, 0);
        size = 0;
        for (int i = 0; i < keptNames.length; i++) {
            int slot = keptHashes[i] & mask;
            while (names[slot] != null) {
                slot = (slot + 1) & mask;
            }
            names[slot] = keptNames[i];
            texts[slot] = keptTexts[i];
            hashes[slot] = keptHashes[i];
            size++;
        }
    }

    private static int hash(byte[] source, int from, int to) {
        int h = 1;
        for (int i = from; i < to; i++) {
            h = 31 * h + source[i];
        }
        return h ^ (h >>> 16);
    }
}
