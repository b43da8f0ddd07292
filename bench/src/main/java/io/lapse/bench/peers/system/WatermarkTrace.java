package io.lapse.bench.peers.system;

import io.lapse.store.watermarks.WatermarkEntry;
import io.lapse.store.watermarks.Watermarks;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

/**
 * When Lapse's watermark first reached each value, read from Redis every millisecond beside the run, with how far
 * ingest held it back for late records at that moment and what the report that moved it said: when ingest asked the
 * broker for the proof it carried, and when ingest made it. That splits a silent entity's wait before its claim into
 * the watermark's parts and the timer's.
 */
public final class WatermarkTrace implements AutoCloseable {

    /**
     * The moment the watermark was first seen at or past a value, and what stood in the hash then.
     *
     * @param seenAtMillis   when this trace read it
     * @param heldBackMillis ingest's lateness allowance at that moment
     * @param askedAtMillis  when ingest asked the broker for its newest partition count and end offsets (the
     *                       {@code topic/*} fields' time): a mark that a proof moved is this time
     * @param madeAtMillis   when ingest made its newest report (the marks' time)
     */
    public record Passage(long seenAtMillis, long heldBackMillis, long askedAtMillis, long madeAtMillis) {}

    private static final long KEEP_MILLIS = Duration.ofMinutes(5).toMillis();
    private static final long SAMPLE_EVERY_MILLIS = 1;

    private final Watermarks watermarks;
    private final DoubleSupplier heldBackSeconds;
    private final TreeMap<Long, Passage> firstSeen = new TreeMap<>();
    private final Loop loop;

    private WatermarkTrace(Watermarks watermarks, DoubleSupplier heldBackSeconds) {
        this.watermarks = watermarks;
        this.heldBackSeconds = heldBackSeconds;
        this.loop = Loop.start("peers-watermark-trace", this::sample);
    }

    /** @param heldBackSeconds ingest's lateness allowance now (its {@code lapse.ingest.watermark.held.back} gauge) */
    public static WatermarkTrace start(Watermarks watermarks, DoubleSupplier heldBackSeconds) {
        return new WatermarkTrace(watermarks, heldBackSeconds);
    }

    private void sample() throws Exception {
        Map<String, WatermarkEntry> fields = watermarks.all().get(10, TimeUnit.SECONDS);
        OptionalLong low = watermarks.low(fields);
        long now = System.currentTimeMillis();
        long heldBack = Math.round(heldBackSeconds.getAsDouble() * 1000);
        if (low.isPresent()) {
            synchronized (firstSeen) {
                if (firstSeen.isEmpty() || low.getAsLong() > firstSeen.lastKey()) {
                    firstSeen.put(low.getAsLong(), new Passage(now, heldBack, askedAt(fields), madeAt(fields)));
                }
                firstSeen.headMap(now - KEEP_MILLIS).clear();
            }
        }
        Thread.sleep(SAMPLE_EVERY_MILLIS);
    }

    /** The oldest partition count's time: the low is never later than it. */
    private static long askedAt(Map<String, WatermarkEntry> fields) {
        return fields.entrySet().stream()
                .filter(field -> Watermarks.isCountField(field.getKey()))
                .mapToLong(field -> field.getValue().madeAt())
                .min()
                .orElseThrow();
    }

    /** The newest report's time: one ingest writes every partition it reads in each report. */
    private static long madeAt(Map<String, WatermarkEntry> fields) {
        return fields.entrySet().stream()
                .filter(field -> !Watermarks.isCountField(field.getKey()))
                .mapToLong(field -> field.getValue().madeAt())
                .max()
                .orElseThrow();
    }

    /** When the watermark first reached {@code deadline}; empty if the trace has not seen it do so (yet). */
    public Optional<Passage> passed(long deadline) {
        loop.check();
        synchronized (firstSeen) {
            Map.Entry<Long, Passage> entry = firstSeen.ceilingEntry(deadline);
            return entry == null ? Optional.empty() : Optional.of(entry.getValue());
        }
    }

    @Override
    public void close() {
        loop.close();
    }
}
