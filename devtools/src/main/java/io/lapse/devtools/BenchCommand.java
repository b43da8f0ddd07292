package io.lapse.devtools;

import io.lapse.bench.BenchOptions;
import io.lapse.bench.Benchmark;
import io.lapse.config.Durations;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "bench",
        subcommands = {
            PullerBenchCommand.class,
            InspectBenchCommand.class,
            StormBenchCommand.class,
            PeersBenchCommand.class,
            SoakBenchCommand.class,
            AtRestBenchCommand.class,
            CompensatorBenchCommand.class,
            ExpiryCpuBenchCommand.class,
            CohortCpuBenchCommand.class
        },
        description = "Measure ingest throughput, fire lateness and Redis memory per order on an embedded Kafka and "
                + "Redis, and print the figures as Markdown tables (the defaults take about 8 minutes). "
                + "`lapse bench puller` measures the puller, `lapse bench inspect` the on-call inspect on big topics, "
                + "`lapse bench storm` an expiry storm (the whole fleet silent at once), `lapse bench peers` the "
                + "designs Lapse replaces on the same workload, `lapse bench soak` the whole pipeline as processes, `lapse bench at-rest` what a small deployment costs at rest, `lapse bench compensator` the compensator's "
                + "throughput against plain Kafka Streams.")
final class BenchCommand implements Callable<Integer> {

    private static final BenchOptions DEFAULTS = BenchOptions.defaults();

    @Option(
            names = "--sizes",
            split = ",",
            description = "Watched orders per lateness run (default 10000,100000,1000000).")
    List<Integer> sizes = DEFAULTS.sizes();

    @Option(names = "--modes", split = ",", description = "Timer modes to compare (default zset,ttl).")
    List<String> modes = DEFAULTS.modes();

    @Option(names = "--cadence", description = "Push cadence of every live order (default 15s).")
    String cadence = Durations.format(DEFAULTS.cadence());

    @Option(names = "--ttl", description = "timer.ttl; longer than the cadence (default 20s).")
    String ttl = Durations.format(DEFAULTS.ttl());

    @Option(names = "--silent", description = "Share of orders going silent (default 0.01).")
    double silent = DEFAULTS.silentFraction();

    @Option(
            names = "--throughput-pushes",
            description = "Pushes of the ingest throughput run; 0 skips it (default 2000000).")
    long throughputPushes = DEFAULTS.throughputPushes();

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the report to this Markdown file.")
    Path output;

    @Override
    public Integer call() throws Exception {
        return Benchmark.run(
                new BenchOptions(
                        sizes, modes, Durations.parse(cadence), Durations.parse(ttl), silent, throughputPushes, output),
                System.out);
    }
}
