package io.lapse.faults.lab;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks every process of a generation whether it is ready, every {@link #PERIOD}, on a thread of its own, so that each
 * restarted process's start-up is seen when it happens. Asked only once a fault was over, a rolling restart's first
 * service looked ready 14 s after its start: the 4 × 3 s of the roll that nobody asked in.
 */
public final class ReadinessWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReadinessWatch.class);
    private static final Duration PERIOD = Duration.ofMillis(100);

    private final Supplier<? extends Collection<LapseProcess>> processes;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Thread thread;

    private ReadinessWatch(Supplier<? extends Collection<LapseProcess>> processes) {
        this.processes = processes;
        this.thread = new Thread(this::watch, "faults-readiness");
        thread.setDaemon(true);
    }

    /** @param processes the generation's processes, asked for again at each turn (a fault may add some) */
    public static ReadinessWatch start(Supplier<? extends Collection<LapseProcess>> processes) {
        ReadinessWatch watch = new ReadinessWatch(processes);
        watch.thread.start();
        return watch;
    }

    private void watch() {
        try {
            do {
                try {
                    processes.get().forEach(LapseProcess::watchReadiness);
                } catch (RuntimeException e) {
                    log.warn("readiness not asked this turn", e);
                }
            } while (!closing.await(PERIOD.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closing.countDown();
        try {
            thread.join(PERIOD.multipliedBy(50).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
