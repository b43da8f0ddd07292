package io.lapse.bench.throughput;

import io.lapse.bench.expiry.ThreadCpu;
import io.lapse.bench.harness.BenchServices;
import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.harness.RunSandbox;
import io.lapse.bench.load.PushTopicFiller;
import io.lapse.bench.report.BenchEnvironment;
import io.lapse.bench.report.ReportFormat;
import io.lapse.devstack.DevStack;
import io.lapse.lifecycle.ServiceName;
import io.lapse.metrics.MetricNames;
import io.lapse.runtime.LapseRuntime;
import io.micrometer.core.instrument.Counter;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Ingest's CPU per push without and with {@code fleet.cohort-field}, in one run and turn by turn: the same backlog of
 * pushes (each naming one of 500 operators of uneven sizes, a long tail) is applied by an ingest started as the
 * launcher starts it, once telling no cohorts and once counting the operators, and the CPU time of the threads ingest
 * started (its loop, its consumer's, its Redis connection's event loop, the fleet watch) is divided by the pushes. GC
 * and the JIT are in neither figure.
 */
public final class CohortCpuBenchmark {

    private static final int OPERATORS = 500;
    private static final Duration APPLY_TIMEOUT = Duration.ofMinutes(3);

    private CohortCpuBenchmark() {}

    /** One turn: CPU ns per push without cohorts and with them. */
    record Turn(double withoutNanos, double withNanos) {}

    public static int run(long pushes, int orders, int turns, PrintStream out) {
        long started = System.nanoTime();
        List<Turn> results = new ArrayList<>();
        BenchEnvironment environment;
        try (DevStack stack = DevStack.start();
                RedisProbe probe = RedisProbe.open(stack.redisUri())) {
            environment = BenchEnvironment.capture(probe);
            // a first, unreported turn compiles what the measured ones run
            ingestTurn(stack, probe, pushes, orders, false);
            ingestTurn(stack, probe, pushes, orders, true);
            for (int turn = 0; turn < turns; turn++) {
                // the order of the two alternates, so that neither always runs on a warmer broker
                boolean withFirst = turn % 2 == 1;
                double first = ingestTurn(stack, probe, pushes, orders, withFirst);
                double second = ingestTurn(stack, probe, pushes, orders, !withFirst);
                results.add(withFirst ? new Turn(second, first) : new Turn(first, second));
            }
        } catch (Exception e) {
            throw new IllegalStateException("the cohort CPU benchmark could not run: " + e.getMessage(), e);
        }
        out.print(report(environment, pushes, orders, results, Duration.ofNanos(System.nanoTime() - started)));
        out.flush();
        return 0;
    }

    /** The operator of an order: a few big ones and a long tail of small ones, as real operators are. */
    static String operatorOf(int order) {
        double x = (order * 0.6180339887) % 1.0;
        return "op-" + (int) (OPERATORS * x * x * x);
    }

    /** @return ingest's CPU ns per push, applying {@code pushes} written beforehand */
    private static double ingestTurn(DevStack stack, RedisProbe probe, long pushes, int orders, boolean cohorts)
            throws Exception {
        Map<String, String> settings = new HashMap<>(Map.of("timer.mode", "zset", "topics.partitions", "6"));
        if (cohorts) {
            settings.put("fleet.cohort-field", "operatorId");
        }
        try (RunSandbox sandbox =
                RunSandbox.open(stack, probe, cohorts ? "cohort-cpu-on" : "cohort-cpu-off", settings)) {
            String topic = sandbox.config.topics().push();
            stack.kafka().createTopic(topic, sandbox.partitions());
            PushTopicFiller.fill(
                    sandbox.clients,
                    topic,
                    pushes,
                    orders,
                    i -> System.currentTimeMillis(),
                    CohortCpuBenchmark::operatorOf);
            Set<Long> before = ThreadCpu.aliveNow();
            try (LapseRuntime ingest = BenchServices.start(sandbox.config, EnumSet.of(ServiceName.INGEST))) {
                ThreadCpu cpu = ThreadCpu.from(ThreadCpu.startedAfter(before));
                long deadline = System.nanoTime() + APPLY_TIMEOUT.toNanos();
                while (read(ingest, topic) < pushes || sandbox.ingestLag() > 0) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "ingest applied " + (long) read(ingest, topic) + " of " + pushes + " pushes in time");
                    }
                    Thread.sleep(10);
                }
                return (double) cpu.nanos() / pushes;
            }
        }
    }

    private static double read(LapseRuntime ingest, String topic) {
        Counter read = ingest.registry()
                .find(MetricNames.INGEST_RECORDS)
                .tag("topic", topic)
                .counter();
        return read == null ? 0 : read.count();
    }

    static String report(BenchEnvironment environment, long pushes, int orders, List<Turn> turns, Duration took) {
        StringBuilder out = new StringBuilder();
        out.append("## Ingest's CPU per push with fleet.cohort-field\n\n")
                .append(environment.line("the devstack's broker and redis-server"))
                .append("\n\n")
                .append(String.format(
                        "%,d pushes over %,d orders of %d operators (a long tail), written beforehand; per turn ingest"
                                + " applies them without cohorts and with fleet.cohort-field=operatorId (its own"
                                + " threads' CPU). %d turns after an unreported one; %.0f s in all.%n%n",
                        pushes, orders, OPERATORS, turns.size(), took.toSeconds() * 1.0))
                .append("| turn | without ns/push | with ns/push | with ÷ without |\n")
                .append("| ---: | ---: | ---: | ---: |\n");
        for (int i = 0; i < turns.size(); i++) {
            Turn t = turns.get(i);
            out.append(String.format(
                    "| %d | %.0f | %.0f | %.3f |%n",
                    i + 1, t.withoutNanos(), t.withNanos(), t.withNanos() / t.withoutNanos()));
        }
        double without = ReportFormat.median(
                turns.stream().mapToDouble(Turn::withoutNanos).toArray());
        double with =
                ReportFormat.median(turns.stream().mapToDouble(Turn::withNanos).toArray());
        out.append(String.format(
                "%nMedian: without %.0f ns, with %.0f ns per push: %+.1f %% (goal: at most +10 %%).%n",
                without, with, (with / without - 1) * 100));
        return out.toString();
    }
}
