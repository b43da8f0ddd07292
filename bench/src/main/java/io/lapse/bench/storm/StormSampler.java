package io.lapse.bench.storm;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The backlog and the cumulative upstream calls, read once a second on a thread of its own, for the plot: the figures
 * of the table come from the topics, these only draw their course.
 */
public final class StormSampler implements AutoCloseable {

    /**
     * @param atMillis ms since the silence began (negative before)
     * @param backlog  expiries the puller had not answered, -1 before the puller reported one
     * @param calls    upstream calls since the sampler started
     */
    public record Sample(long atMillis, long backlog, long calls) {}

    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "lapse-bench-storm-sampler");
        t.setDaemon(true);
        return t;
    });
    private final List<Sample> samples = new ArrayList<>();

    private StormSampler() {}

    /**
     * @param origin  epoch ms the samples count from
     * @param backlog the puller's backlog gauge, -1 while it has none
     * @param calls   upstream calls so far
     */
    public static StormSampler start(long origin, LongSupplier backlog, LongSupplier calls) {
        StormSampler sampler = new StormSampler();
        long callsBefore = calls.getAsLong();
        sampler.thread.scheduleAtFixedRate(
                () -> sampler.add(new Sample(
                        System.currentTimeMillis() - origin, backlog.getAsLong(), calls.getAsLong() - callsBefore)),
                0,
                1,
                TimeUnit.SECONDS);
        return sampler;
    }

    private synchronized void add(Sample sample) {
        samples.add(sample);
    }

    public synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    public synchronized long peakBacklog() {
        return samples.stream().mapToLong(Sample::backlog).max().orElse(-1);
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
