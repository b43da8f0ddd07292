package io.lapse.bench.compensator;

import io.lapse.bench.harness.RunSandbox;
import io.lapse.bench.report.Rate;
import io.lapse.bench.report.ReportFormat;
import io.lapse.compensator.fold.StreamsSettings;
import java.io.PrintStream;
import java.time.Duration;

/**
 * The compensator's throughput against a plain Kafka Streams application with the same processing guarantee
 * ({@link FoldingBaseline}), one after the other in one JVM on the same backlog: orders × pushes records on six
 * partitions, written before either starts. Each is timed from its start until its consumer group committed the end
 * of the backlog, under an application id of its own. Absolute rates vary twofold between machines; their ratio is
 * the figure (goal ≥ 0.5). It prints Markdown.
 */
public final class CompensatorThroughput {

    public static final int DEFAULT_ORDERS = 400_000;
    public static final int DEFAULT_PUSHES_PER_ORDER = 5;
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private CompensatorThroughput() {}

    /** {@code [orders] [pushes per order]}; the report goes to stdout, progress to stderr. */
    public static void main(String[] args) {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "io/lapse/bench/logback-bench.xml");
        }
        System.exit(run(
                args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_ORDERS,
                args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_PUSHES_PER_ORDER,
                System.out));
    }

    /** @return 0 when the ratio meets the goal, 1 when not or when a run did not finish */
    public static int run(int orders, int pushesPerOrder, PrintStream out) {
        return run(orders, pushesPerOrder, OrderBacklog.Partitioner.JAVA, out);
    }

    /**
     * @param partitioner how the backlog's producer partitions the pushes: the compensator folds those in the partition
     *                    of the mirror their order lives in without the repartition topic, any other through it
     * @return 0 when the ratio meets the goal, 1 when not or when a run did not finish
     */
    public static int run(int orders, int pushesPerOrder, OrderBacklog.Partitioner partitioner, PrintStream out) {
        if (orders < OrderBacklog.FINISHED_EVERY || pushesPerOrder < 1) {
            throw new IllegalArgumentException("at least " + OrderBacklog.FINISHED_EVERY + " orders, one push each");
        }
        long started = System.nanoTime();
        try (CompensatorStage stage = CompensatorStage.open("compensator-throughput")) {
            RunSandbox sandbox = stage.sandbox;
            System.err.printf("writing %,d orders × %d pushes…%n", orders, pushesPerOrder);
            Rate fill = OrderBacklog.write(sandbox, orders, pushesPerOrder, partitioner);
            System.err.printf("written in %.1f s; the baseline folds them…%n", fill.seconds());
            Fold baseline = baseline(sandbox, fill.records(), stage.stateDir);
            System.err.printf(
                    "baseline done in %.1f s; the compensator folds them…%n",
                    baseline.rate().seconds());
            Fold compensator = MirrorRun.of(sandbox, fill.records(), TIMEOUT);
            FoldRatio ratio = new FoldRatio(baseline, compensator);
            out.println("## Compensator throughput against plain Kafka Streams (goal ≥ 0.5 of its records/s)");
            out.println();
            out.print(stage.environment.line("the broker, both applications and the producer"));
            out.printf(
                    "- backlog: %s orders × %d pushes on %d partitions (%s), every %dth order finished by its"
                            + " last; written in %.1f s%n",
                    ReportFormat.count(orders),
                    pushesPerOrder,
                    sandbox.partitions(),
                    partitioner.description,
                    OrderBacklog.FINISHED_EVERY,
                    fill.seconds());
            out.println("- both: exactly_once_v2, commit every "
                    + StreamsSettings.COMMIT_INTERVAL.toMillis() + " ms, " + StreamsSettings.THREADS
                    + " stream thread, fetches of " + StreamsSettings.FETCH_MIN_BYTES / 1024 + " KB or "
                    + StreamsSettings.FETCH_MAX_WAIT_MS
                    + " ms, a persistent store of one entry per order (the baseline's cached, the"
                    + " compensator's not), the baseline first; the compensator reads the pushes with its push"
                    + " folder (a plain consumer, in transactions) and hands its streams one update per order, as"
                    + " a rebuild asks it to at its start");
            out.println("- CPU µs/record: the JVM's CPU time over the pass, the broker's included, per record");
            out.println();
            out.print(ratio.markdown());
            out.print(ReportFormat.totalRunTime(Duration.ofNanos(System.nanoTime() - started)));
            return ratio.met() ? 0 : 1;
        } catch (Exception e) {
            out.println("compensator throughput benchmark failed: " + e);
            return 1;
        }
    }

    private static Fold baseline(RunSandbox sandbox, long records, ScratchDir stateDir) throws InterruptedException {
        String applicationId = sandbox.config.compensator().applicationId() + "-baseline";
        long cpu = Fold.processCpuNanos();
        long started = System.nanoTime();
        try (FoldingBaseline baseline = FoldingBaseline.start(sandbox, applicationId, stateDir.resolve("baseline"))) {
            Drained.ofPushes(sandbox, applicationId).await(TIMEOUT);
            return Fold.since(started, cpu, records);
        }
    }
}
