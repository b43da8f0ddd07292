package io.lapse.devtools;

import io.lapse.config.Durations;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Option;
import sun.misc.Signal;

/** {@code --duration}, Ctrl-C and TERM: what ends a command that otherwise runs for good (the demo, the simulator). */
final class RunUntilStopped {

    /** What a command does once a period, while it runs. */
    interface EachPeriod {
        void run() throws Exception;
    }

    @Option(names = "--duration", description = "Stop by itself after this long, e.g. 60s (default: run until Ctrl-C).")
    String duration;

    private final CountDownLatch stopped = new CountDownLatch(1);

    /**
     * From here on Ctrl-C and TERM end {@link #everyPeriod} instead of the JVM: the command then closes what it
     * started in its own order, before the JVM's shutdown hooks stop the broker its services talk to.
     */
    void catchSignals() {
        Signal.handle(new Signal("INT"), signal -> stopped.countDown());
        Signal.handle(new Signal("TERM"), signal -> stopped.countDown());
    }

    /** Runs the work after every period until a signal, or until --duration has passed since this call. */
    void everyPeriod(Duration period, EachPeriod work) throws Exception {
        long end = duration == null
                ? Long.MAX_VALUE
                : System.nanoTime() + Durations.parse(duration).toNanos();
        while (!stopped.await(period.toMillis(), TimeUnit.MILLISECONDS) && System.nanoTime() < end) {
            work.run();
        }
    }
}
