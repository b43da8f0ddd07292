package io.lapse.bench.compensator;

import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.harness.RunSandbox;
import io.lapse.bench.load.OrderIds;
import io.lapse.bench.load.PushJson;
import io.lapse.bench.load.UpstreamProducerSettings;
import io.lapse.bench.report.BenchEnvironment;
import io.lapse.bench.report.MarkdownTable;
import io.lapse.compensator.CompensatorService;
import io.lapse.compensator.OnCallRebuild;
import io.lapse.devstack.DevStack;
import io.lapse.store.RedisConnection;
import io.lapse.store.ServiceContext;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The compensator's two heavy operations on a mirror of N orders (default 1,000,000), on the devstack: a full rebuild
 * into an empty Redis (what happens after a flush, and what {@code lapse rebuild} does), and a full scan of the same
 * mirror against the Redis it filled (the rebuild's dry run: every order read from the changelog and compared in
 * Redis, nothing to write). Every 50th order finished, so that tombstones are rebuilt too; every other one was last
 * seen ten minutes ago, so that every rebuilt timer is due at once. It prints Markdown and judges nothing.
 */
public final class CompensatorBenchmark {

    private static final Map<String, Object> FILL =
            UpstreamProducerSettings.with(Map.of(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024));
    private static final Duration MIRROR_TIMEOUT = Duration.ofMinutes(30);
    private static final Duration CATCH_UP = Duration.ofSeconds(30);
    private static final int FINISHED_EVERY = 50;

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
        Path stateDir;
        try {
            stateDir = Files.createTempDirectory("lapse-bench-compensator-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (DevStack stack = DevStack.start();
                RedisProbe probe = RedisProbe.open(stack.redisUri())) {
            BenchEnvironment environment = BenchEnvironment.capture(probe);
            try (RunSandbox sandbox = RunSandbox.open(
                    stack,
                    probe,
                    "compensator",
                    Map.of("topics.partitions", "6", "compensator.state-dir", stateDir.toString()))) {
                stack.kafka().createTopic(sandbox.config.topics().push(), sandbox.partitions());
                fill(sandbox, orders);
                long mirrorStarted = System.nanoTime();
                mirror(sandbox, orders);
                double mirrorSeconds = (System.nanoTime() - mirrorStarted) / 1e9;
                probe.reset();
                Step rebuild = Step.run(sandbox, false);
                Step scan = Step.run(sandbox, true);
                out.println("## Compensator: rebuild and full scan of " + String.format("%,d", orders)
                        + " mirrored orders");
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
            }
        } catch (Exception e) {
            out.println("compensator benchmark failed: " + e);
            return 1;
        } finally {
            delete(stateDir);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }

    private static void fill(RunSandbox sandbox, int orders) {
        long seen = System.currentTimeMillis() - Duration.ofMinutes(10).toMillis();
        try (KafkaProducer<byte[], byte[]> producer = sandbox.clients.producer("bench-compensator-fill", FILL)) {
            for (int i = 0; i < orders; i++) {
                String orderId = OrderIds.of(i);
                byte[] value = i % FINISHED_EVERY == 0
                        ? ("{\"orderId\":\"" + orderId + "\",\"status\":\"FINISHED\",\"ts\":" + seen + "}")
                                .getBytes(StandardCharsets.UTF_8)
                        : PushJson.charging(orderId, i, 0, seen);
                producer.send(new ProducerRecord<>(
                        sandbox.config.topics().push(), orderId.getBytes(StandardCharsets.UTF_8), value));
            }
        }
    }

    /** Runs the compensator until it has mirrored every push, then stops it. */
    private static void mirror(RunSandbox sandbox, int orders) throws Exception {
        try (RedisConnection redis = RedisConnection.open(sandbox.config.redis());
                CompensatorService compensator = CompensatorService.build(ServiceContext.of(
                        sandbox.config, sandbox.clients, redis, new SimpleMeterRegistry(), Clock.systemUTC()))) {
            compensator.start();
            long deadline = System.nanoTime() + MIRROR_TIMEOUT.toNanos();
            String group = sandbox.config.compensator().applicationId();
            String repartition = group + "-lapse-order-updates-repartition";
            while (sandbox.lag(group, sandbox.config.topics().push()) > 0
                    || sandbox.lag(group, repartition) > sandbox.partitions()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "the compensator did not mirror " + orders + " pushes within " + MIRROR_TIMEOUT);
                }
                Thread.sleep(1_000);
            }
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
