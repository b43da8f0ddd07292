package io.lapse.bench.peers.system;

import io.lapse.bench.load.Pacer;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * The workload's plan: entity {@code i} re-arms at {@code i × R / N + k × R} after the start, so that the N re-arms of
 * a cadence are spread evenly over it, as N independent devices would be. Every stride-th entity (1 % by default)
 * goes silent at its own random moment within one cadence after the warm-up; its last re-arm before that moment sets
 * the deadline it must fire at.
 */
public final class Heartbeats implements Pacer.Schedule {

    private final int entities;
    private final long cadenceNanos;
    private final int silentStride;
    private final long warmupNanos;
    /** Per entity: from when it no longer re-arms, in ns after the start; Long.MAX_VALUE for a live one */
    private final long[] silentFrom;

    /** @param seed the same seed gives every system the same silent moments */
    public Heartbeats(int entities, Duration cadence, double silentFraction, Duration warmup, long seed) {
        this.entities = entities;
        this.cadenceNanos = cadence.toNanos();
        this.silentStride = (int) Math.max(1, Math.round(1 / silentFraction));
        this.warmupNanos = warmup.toNanos();
        this.silentFrom = new long[entities];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < entities; i++) {
            silentFrom[i] = isSilent(i) ? warmupNanos + random.nextLong(cadenceNanos) : Long.MAX_VALUE;
        }
    }

    public int entities() {
        return entities;
    }

    public boolean isSilent(int entity) {
        return entity % silentStride == 0;
    }

    public int silentCount() {
        return (entities + silentStride - 1) / silentStride;
    }

    @Override
    public long dueBy(long elapsedNanos) {
        return Math.multiplyExact(elapsedNanos, (long) entities) / cadenceNanos + 1;
    }

    @Override
    public long dueAt(long index) {
        return Math.multiplyExact(index, cadenceNanos) / entities;
    }

    int entityOf(long index) {
        return (int) (index % entities);
    }

    /** Whether re-arm {@code index} is one its entity leaves out, being silent by then. */
    boolean skips(long index) {
        return dueAt(index) >= silentFrom[entityOf(index)];
    }

    /** Every entity has re-armed at least once by then. */
    public long warmupNanos() {
        return warmupNanos;
    }

    /** By then every silent entity has made its last re-arm. */
    public long silenceCompleteNanos() {
        return warmupNanos + cadenceNanos;
    }
}
