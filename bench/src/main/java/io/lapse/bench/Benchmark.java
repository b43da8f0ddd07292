package io.lapse.bench;

import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.lateness.LatenessResult;
import io.lapse.bench.lateness.LatenessRun;
import io.lapse.bench.report.BenchEnvironment;
import io.lapse.bench.throughput.ThroughputBenchmark;
import io.lapse.bench.throughput.ThroughputResult;
import io.lapse.devstack.DevStack;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Lapse's benchmark on the devstack (Kafka in this JVM, Redis as a child process, both started once): ingest
 * throughput, then fire lateness and Redis memory per order for every mode and size. It prints figures and judges
 * nothing; a run that fails or cannot keep up shows as such in the report.
 */
public final class Benchmark {

    private static final String LOGGING = "io/lapse/bench/logback-bench.xml";

    private Benchmark() {}

    /** Runs the default benchmark without the app; progress goes to stderr, the report to stdout. */
    public static void main(String[] args) {
        // before any logger exists; an explicit -Dlogback.configurationFile wins
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", LOGGING);
        }
        System.exit(run(BenchOptions.defaults(), System.out));
    }

    /**
     * Prints the report to {@code out} (and writes it to {@code options.output()} when set).
     *
     * @return 0 when every measurement completed, 1 when one failed (its row says why)
     */
    public static int run(BenchOptions options, PrintStream out) {
        long started = System.nanoTime();
        ThroughputResult throughput = null;
        List<LatenessResult> runs = new ArrayList<>();
        BenchEnvironment environment;
        try (DevStack stack = DevStack.start();
                RedisProbe probe = RedisProbe.open(stack.redisUri())) {
            environment = BenchEnvironment.capture(probe);
            if (options.throughputPushes() > 0) {
                try {
                    throughput = ThroughputBenchmark.run(stack, probe, options.throughputPushes(), options.ttl());
                } catch (Exception e) {
                    throughput = ThroughputResult.failed(options.throughputPushes(), describe(e));
                }
            }
            for (String mode : options.modes()) {
                for (int size : options.sizes()) {
                    // garbage of the previous run should not be collected during this one
                    System.gc();
                    try {
                        runs.add(LatenessRun.run(stack, probe, options.lateness(), mode, size));
                    } catch (Exception e) {
                        runs.add(LatenessResult.failed(mode, size, describe(e)));
                    }
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("the devstack could not run the benchmark: " + e.getMessage(), e);
        }
        String report = BenchReport.markdown(
                environment, options, throughput, runs, Duration.ofNanos(System.nanoTime() - started));
        out.print(report);
        out.flush();
        if (options.output() != null) {
            try {
                Files.writeString(options.output(), report);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the report to " + options.output(), e);
            }
        }
        boolean failed = (throughput != null && throughput.failure() != null)
                || runs.stream().anyMatch(r -> r.failure() != null);
        return failed ? 1 : 0;
    }

    private static String describe(Exception e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? e.toString() : e + " (cause: " + root + ")";
    }
}
