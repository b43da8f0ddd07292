package io.lapse.faults.soak.sample;

import java.time.Duration;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Takes a sample every so often on a thread of its own, so that a fault on the main thread does not pause it. */
public final class SamplingThread implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SamplingThread.class);

    private final Sampler sampler;
    private final Duration every;
    private final Consumer<SoakSample> keep;
    private final Consumer<SoakSample> show;
    private final Thread thread;
    private volatile boolean closed;

    public SamplingThread(Sampler sampler, Duration every, Consumer<SoakSample> keep, Consumer<SoakSample> show) {
        this.sampler = sampler;
        this.every = every;
        this.keep = keep;
        this.show = show;
        this.thread = new Thread(this::loop, "soak-sampler");
    }

    public void start() {
        thread.start();
    }

    private void loop() {
        long next = System.nanoTime();
        while (!closed) {
            next += every.toNanos();
            sampleOnce();
            long left = next - System.nanoTime();
            if (left > 0) {
                try {
                    Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
                } catch (InterruptedException e) {
                    return; // closed
                }
            }
        }
    }

    private void sampleOnce() {
        try {
            SoakSample sample = sampler.sample();
            keep.accept(sample);
            show.accept(sample);
        } catch (RuntimeException e) {
            log.warn("a sample failed: {}", e.toString());
        }
    }

    /** Stops sampling and takes a last sample, so that the run's end is in the figures. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sampleOnce();
    }
}
