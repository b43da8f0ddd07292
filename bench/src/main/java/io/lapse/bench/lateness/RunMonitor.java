package io.lapse.bench.lateness;

import io.lapse.metrics.MetricNames;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples, once a second, how far ingest trails the push topic and how old the timer's watermark is, and keeps the
 * worst of each: an overloaded run must show as overloaded, even if it caught up by the end. It also counts the time
 * this JVM (broker, services and generator alike) spent in garbage collection meanwhile, the usual cause of a spike.
 */
final class RunMonitor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RunMonitor.class);
    private static final long PERIOD_MS = 1_000;

    private final Callable<Long> ingestLag;
    private final MeterRegistry registry;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long lagMax;
    private volatile long watermarkAgeMaxMillis;
    private final long gcMillisAtStart = gcMillis();

    private RunMonitor(Callable<Long> ingestLag, MeterRegistry registry) {
        this.ingestLag = ingestLag;
        this.registry = registry;
        this.thread = new Thread(this::run, "bench-monitor");
        this.thread.setDaemon(true);
    }

    /** @param registry where the timer registered lapse.timer.watermark.age */
    static RunMonitor start(Callable<Long> ingestLag, MeterRegistry registry) {
        RunMonitor monitor = new RunMonitor(ingestLag, registry);
        monitor.thread.start();
        return monitor;
    }

    private void run() {
        while (running) {
            try {
                lagMax = Math.max(lagMax, ingestLag.call());
            } catch (Exception e) {
                log.debug("ingest lag not known this time: {}", e.toString());
            }
            Gauge age = registry.find(MetricNames.TIMER_WATERMARK_AGE).gauge();
            if (age != null && !Double.isNaN(age.value())) {
                watermarkAgeMaxMillis = Math.max(watermarkAgeMaxMillis, (long) (age.value() * 1000));
            }
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    long lagMax() {
        return lagMax;
    }

    long watermarkAgeMaxMillis() {
        return watermarkAgeMaxMillis;
    }

    long gcMillisSinceStart() {
        return gcMillis() - gcMillisAtStart;
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime)
                .filter(t -> t > 0)
                .sum();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
