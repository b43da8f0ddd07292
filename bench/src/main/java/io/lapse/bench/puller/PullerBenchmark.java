package io.lapse.bench.puller;

import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.report.BenchEnvironment;
import io.lapse.bench.report.MarkdownTable;
import io.lapse.bench.report.ReportFormat;
import io.lapse.config.Durations;
import io.lapse.devstack.DevStack;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The puller's benchmark on the devstack against the simulated upstream: pulls per second sustained at a latency and
 * the achieved rate against {@code upstream.rate-limit}; and the time from an outage's end until every silent order
 * was pulled. It prints Markdown and the goals beside the figures; it judges nothing.
 */
public final class PullerBenchmark {

    private PullerBenchmark() {}

    /** @return 0 when every run completed, 1 when one did not (its row says so) */
    public static int run(PullerBenchOptions options, PrintStream out) {
        long started = System.nanoTime();
        List<PullRateResult> rates = new ArrayList<>();
        RecoveryResult recovery = null;
        BenchEnvironment environment;
        try (DevStack stack = DevStack.start();
                RedisProbe probe = RedisProbe.open(stack.redisUri())) {
            environment = BenchEnvironment.capture(probe);
            for (int rate : options.rateLimits()) {
                rates.add(PullRateRun.run(stack, probe, options, rate));
            }
            if (options.silentOrders() > 0) {
                recovery = RecoveryRun.run(stack, probe, options);
            }
        } catch (Exception e) {
            throw new IllegalStateException("the puller benchmark could not run: " + e.getMessage(), e);
        }
        out.print(markdown(environment, options, rates, recovery, Duration.ofNanos(System.nanoTime() - started)));
        out.flush();
        boolean complete = rates.stream().allMatch(r -> r.answered() == r.pulls())
                && (recovery == null || recovery.pulledOrders() == recovery.orders());
        return complete ? 0 : 1;
    }

    static String markdown(
            BenchEnvironment env,
            PullerBenchOptions options,
            List<PullRateResult> rates,
            RecoveryResult recovery,
            Duration took) {
        StringBuilder out = new StringBuilder("# Lapse puller benchmark\n\n");
        out.append(env.line("Kafka broker, Redis, simulated upstream and puller"));
        out.append("- simulated upstream latency ")
                .append(Durations.format(options.latency()))
                .append(
                        " per request; pull threads (upstream.concurrency) 3 × rate × (latency + 50 ms of Lapse's own), at least 16\n");
        out.append(
                options.bulkSize() > 0
                        ? "- bulk requests on: upstream.bulk-size " + options.bulkSize() + ", the simulator serving "
                                + PullerBenchOptions.BULK_PATH + "\n\n"
                        : "- single pulls only (no bulk requests)\n\n");
        out.append("## Sustained pulls (goal: achieved rate within 2 % of upstream.rate-limit)\n\n");
        MarkdownTable table = new MarkdownTable(
                "upstream.rate-limit",
                "pull threads",
                "expiries",
                "answered",
                "ok",
                "pulls/s",
                "vs limit",
                "upstream peak orders/s",
                "bulk requests",
                "request mean",
                "permit wait mean",
                "puller CPU per pull",
                "puller cores",
                "process CPU per pull");
        for (PullRateResult r : rates) {
            table.row(
                    count(r.rateLimit()),
                    count(r.concurrency()),
                    count(r.pulls()),
                    count(r.answered()),
                    count(r.ok()),
                    String.format(Locale.ROOT, "%,.1f", r.perSecond()),
                    String.format(Locale.ROOT, "%+.2f %%", r.deviation() * 100),
                    count(r.peakUpstream()),
                    count(r.bulkRequests()),
                    String.format(Locale.ROOT, "%.1f ms", r.requestMs()),
                    String.format(Locale.ROOT, "%.1f ms", r.permitWaitMs()),
                    String.format(Locale.ROOT, "%.3f ms", r.pullerCpuMsPerPull()),
                    String.format(Locale.ROOT, "%.2f", r.cpu().pullerCores()),
                    String.format(Locale.ROOT, "%.3f ms", r.cpu().processMsPer(r.answered())));
        }
        out.append(table)
                .append("\npulls/s: PullResults per second by their pulledAt, over the middle 90 % of the run;"
                        + " all expiries were waiting in the topic when the puller started. Upstream peak: the most orders the"
                        + " simulator's handler threads were asked for within one second, alone or in bulk requests; requests the puller starts evenly can reach"
                        + " them bunched when the machine is busy. Request mean: as the puller timed it, latency included."
                        + " Puller CPU: thread CPU time of the threads the puller started and the shared pools it uses, from"
                        + " when it was ready until the last result arrived, per result; cores: that CPU over the same span."
                        + " Process CPU: the whole process over the same span (the simulator, GC and JIT included).\n");
        if (recovery != null) {
            out.append("\n## Recovery after an outage (goal: backlog ÷ rate limit + 5 s)\n\n");
            out.append(new MarkdownTable(
                            "silent orders",
                            "outage",
                            "rate limit",
                            "backlog at recovery",
                            "FAILED in outage",
                            "orders pulled after",
                            "last order pulled",
                            "backlog answered",
                            "goal",
                            "upstream peak req/s")
                    .row(
                            count(recovery.orders()),
                            Durations.format(recovery.outage()),
                            count(recovery.rateLimit()),
                            count(recovery.backlog()),
                            count(recovery.failedInOutage()),
                            count(recovery.pulledOrders()),
                            seconds(recovery.lastPulledMs()),
                            seconds(recovery.drainedMs()),
                            seconds(recovery.goalMs()),
                            count(recovery.peakUpstream())));
            out.append("\nThe whole pipeline (simulator pushing every 15 s, ingest, timer with ttl 45 s, puller); all"
                    + " orders go silent as upstream starts answering 503. Times count from upstream's recovery: until"
                    + " the last order's first OK pull, and until the last expiry fired during the outage was"
                    + " answered.\n");
        }
        out.append(ReportFormat.totalRunTime(took));
        return out.toString();
    }

    private static String count(long n) {
        return ReportFormat.count(n);
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
