package io.lapse.bench.inspect;

import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.harness.RunSandbox;
import io.lapse.bench.load.OrderIds;
import io.lapse.bench.load.PushTopicFiller;
import io.lapse.bench.report.Rate;
import io.lapse.bench.throughput.ConsumerBaseline;
import io.lapse.devstack.DevStack;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.operations.inspect.InspectCommand;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine;

/**
 * How long {@code lapse inspect} takes on big topics: a push topic of {@code records} records over the last 24 h, and
 * one order inspected over the default hour of look-back, against reading the whole topic once (the baseline, in the
 * same run): inspect reads only the partitions the key lies in, from the offsets the broker finds by time.
 */
public final class InspectBenchmark {

    private static final Duration SPAN = Duration.ofHours(24);
    private static final int ORDERS = 100_000;
    private static final int PARTITIONS = 6;
    private static final int RUNS = 3;

    private InspectBenchmark() {}

    public static int run(long records, PrintStream out) throws Exception {
        try (DevStack stack = DevStack.start();
                RunSandbox sandbox = RunSandbox.open(
                        stack, RedisProbe.open(stack.redisUri()), "inspect", Map.of("topics.partitions", "6"))) {
            String push = sandbox.config.topics().push();
            new TopicProvisioner(sandbox.clients)
                    .ensure(Set.of(
                            push,
                            sandbox.config.topics().expired(),
                            sandbox.config.topics().pulled()));
            long start = System.currentTimeMillis() - SPAN.toMillis();
            double step = (double) SPAN.toMillis() / records;
            out.printf(
                    "writing %,d pushes of %,d orders over the last %d h to %d partitions…%n",
                    records, ORDERS, SPAN.toHours(), PARTITIONS);
            Rate fill = PushTopicFiller.fill(sandbox.clients, push, records, ORDERS, i -> start + (long) (i * step));
            out.printf("written at %,.0f records/s%n", fill.perSecond());
            Rate scan =
                    ConsumerBaseline.read(sandbox.clients, push, PARTITIONS, records, 2_000, Duration.ofMinutes(10));
            Path config = Files.createTempFile("lapse-bench-inspect", ".properties");
            Files.writeString(
                    config,
                    sandbox.settings.entrySet().stream()
                            .map(e -> e.getKey() + "=" + e.getValue())
                            .collect(Collectors.joining("\n")));
            List<Long> millis = new ArrayList<>();
            String output = "";
            for (int run = 0; run < RUNS; run++) {
                StringWriter printed = new StringWriter();
                long began = System.nanoTime();
                int exit = new CommandLine(new InspectCommand())
                        .setOut(new PrintWriter(printed, true))
                        .setErr(new PrintWriter(printed, true))
                        .execute(OrderIds.of(run), "--config", config.toString());
                millis.add((System.nanoTime() - began) / 1_000_000);
                output = printed.toString();
                if (exit != 0) {
                    throw new IllegalStateException("lapse inspect exited " + exit + ": " + output);
                }
            }
            long median = millis.stream().sorted().toList().get(RUNS / 2);
            out.println(output.lines()
                    .filter(line -> line.startsWith("  pushes"))
                    .findFirst()
                    .orElse(""));
            out.println();
            out.println("| what | time | records read |");
            out.println("|---|---|---|");
            out.printf(
                    "| read the whole push topic once (baseline) | %.1f s | %,d |%n", scan.seconds(), scan.records());
            out.printf(
                    "| `lapse inspect ORDER` (look-back 1 h; median of %d, each %s ms) | %.2f s | 2 of %d partitions,"
                            + " the last hour |%n",
                    RUNS, millis, median / 1000.0, PARTITIONS);
            out.printf(
                    "%ninspect took %.3f of the full read (%.0fx faster) on %,d records%n",
                    median / 1000.0 / scan.seconds(), scan.seconds() * 1000 / median, records);
            Files.deleteIfExists(config);
            return 0;
        }
    }
}
