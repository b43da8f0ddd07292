package io.lapse.bench.compensator;

import io.lapse.bench.harness.RunSandbox;
import io.lapse.bench.report.BenchEnvironment;
import io.lapse.bench.report.MarkdownTable;
import io.lapse.compensator.OnCallRebuild;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

/**
 * The compensator's two heavy operations on a mirror of N orders (default 1,000,000), on the devstack: a full rebuild
 * into an empty Redis (what happens after a flush, and what {@code lapse rebuild} does), and a full scan of the same
 * mirror against the Redis it filled (the rebuild's dry run: every order read from the changelog and compared in
 * Redis, nothing to write). Every 50th order finished, so that tombstones are rebuilt too; every other one was last
 * seen ten minutes ago, so that every rebuilt timer is due at once. It prints Markdown and judges nothing.
 */
public final class CompensatorBenchmark {

    private static final Duration MIRROR_TIMEOUT = Duration.ofMinutes(30);
    private static final Duration CATCH_UP = Duration.ofSeconds(30);

    private CompensatorBenchmark() {}

    /** {@code [orders]}; the report goes to stdout, progress to stderr. */
    public static void main(String[] args) {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "io/lapse/bench/logback-bench.xml");
        }
        System.exit(run(args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000, System.out));
    }

    /** @return 0 when both operations completed exactly, 1 otherwise (the table says which) */
    public static int run(int orders, PrintStream out) {
        try (CompensatorStage stage = CompensatorStage.open("compensator")) {
            RunSandbox sandbox = stage.sandbox;
            BenchEnvironment environment = stage.environment;
            OrderBacklog.write(sandbox, orders, 1, OrderBacklog.Partitioner.JAVA);
            double mirrorSeconds =
                    MirrorRun.of(sandbox, orders, MIRROR_TIMEOUT).rate().seconds();
            stage.probe.reset();
            Step rebuild = Step.run(sandbox, false);
            Step scan = Step.run(sandbox, true);
            out.println(
                    "## Compensator: rebuild and full scan of " + String.format("%,d", orders) + " mirrored orders");
            out.println();
            out.println(environment.date() + ", " + environment.cores() + " cores, " + environment.os() + ", "
                    + environment.java() + ", Redis " + environment.redisVersion() + "; the mirror of "
                    + String.format("%,d", orders) + " pushes was built in " + String.format("%.0f", mirrorSeconds)
                    + " s (not a goal).");
            out.println();
            out.print(new MarkdownTable("operation", "orders", "seconds", "orders/s", "goal", "exit")
                    .row(
                            "rebuild into an empty Redis",
                            String.format("%,d", orders),
                            rebuild.seconds(),
                            rebuild.rate(orders),
                            "≤ 30 s",
                            Integer.toString(rebuild.exit))
                    .row(
                            "full scan against the rebuilt Redis",
                            String.format("%,d", orders),
                            scan.seconds(),
                            scan.rate(orders),
                            "≤ 10 s",
                            Integer.toString(scan.exit)));
            out.println();
            out.println("- rebuild: " + rebuild.summary);
            out.println("- scan: " + scan.summary);
            return rebuild.exit == 0 && scan.exit == 0 ? 0 : 1;
        } catch (Exception e) {
            out.println("compensator benchmark failed: " + e);
            return 1;
        }
    }

    /** One run of {@code lapse rebuild}, timed. */
    private record Step(int exit, long nanos, String summary) {

        static Step run(RunSandbox sandbox, boolean dryRun) {
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
            long started = System.nanoTime();
            int exit = new OnCallRebuild(sandbox.config, out, out, Clock.systemUTC()).run(dryRun, CATCH_UP, false);
            return new Step(
                    exit,
                    System.nanoTime() - started,
                    printed.toString(StandardCharsets.UTF_8).trim());
        }

        String seconds() {
            return String.format("%.1f", nanos / 1e9);
        }

        String rate(int orders) {
            return String.format("%,.0f", orders * 1e9 / nanos);
        }
    }
}
