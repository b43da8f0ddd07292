package io.lapse.bench.storm;

import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.report.BenchEnvironment;
import io.lapse.devstack.DevStack;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;

/**
 * The expiry storm benchmark on the devstack against the simulated upstream. It prints Markdown and the goals beside
 * the figures, and draws the backlog; it judges nothing.
 */
public final class StormBenchmark {

    private StormBenchmark() {}

    /** @return 0 when every silent order was pulled, 1 when some were not (the table says how many) */
    public static int run(StormBenchOptions options, PrintStream out) {
        long started = System.nanoTime();
        StormResult result;
        BenchEnvironment environment;
        try (DevStack stack = DevStack.start();
                RedisProbe probe = RedisProbe.open(stack.redisUri())) {
            environment = BenchEnvironment.capture(probe);
            result = StormRun.run(stack, probe, options);
        } catch (Exception e) {
            throw new IllegalStateException("the storm benchmark could not run: " + e.getMessage(), e);
        }
        String plot;
        try {
            plot = options.plot() + " (samples in " + StormPlot.write(result, options.plot()) + ")";
        } catch (IOException e) {
            plot = "not written: " + e.getMessage();
        }
        out.print(StormReport.markdown(environment, result, plot, Duration.ofNanos(System.nanoTime() - started)));
        out.flush();
        return result.everyOrderPulled() ? 0 : 1;
    }

    /** The run and its figures, for the smoke test, which also wants what the report is made of. */
    static StormResult measure(StormBenchOptions options) throws Exception {
        try (DevStack stack = DevStack.start();
                RedisProbe probe = RedisProbe.open(stack.redisUri())) {
            return StormRun.run(stack, probe, options);
        }
    }
}
