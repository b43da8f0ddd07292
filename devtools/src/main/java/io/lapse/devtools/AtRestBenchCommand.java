package io.lapse.devtools;

import io.lapse.config.Durations;
import io.lapse.faults.soak.atrest.AtRestOptions;
import io.lapse.faults.soak.atrest.AtRestRun;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "at-rest",
        description = "What a small deployment costs at rest: a broker, redis-server and each service as its own"
                + " `java -jar lapse.jar` process, N orders pushing and none silent. After the warm-up, prints the CPU"
                + " of every process (cores) over the measured time, the questions ingest asked the broker for its"
                + " caught-up proof and the commands Redis served, per second.")
final class AtRestBenchCommand implements Callable<Integer> {

    private static final AtRestOptions DEFAULTS = AtRestOptions.defaults();

    @Option(names = "--orders", description = "Orders pushing (default 300).")
    int orders = DEFAULTS.orders();

    @Option(names = "--push-interval", description = "Every order pushes this often (default 15s).")
    String pushInterval = Durations.format(DEFAULTS.pushInterval());

    @Option(names = "--warm-up", description = "How long the load runs before the measurement (default 4m).")
    String warmUp = Durations.format(DEFAULTS.warmUp());

    @Option(names = "--measure", description = "How long the CPU is measured (default 60s).")
    String measured = Durations.format(DEFAULTS.measured());

    @Option(names = "--partitions", description = "Partitions of every topic (default 6).")
    int partitions = DEFAULTS.partitions();

    @Option(names = "--out", paramLabel = "DIR", description = "Where each run writes its folder (target/rest).")
    Path out = DEFAULTS.out();

    @Override
    public Integer call() {
        AtRestRun.run(
                new AtRestOptions(
                        orders,
                        Durations.parse(pushInterval),
                        Durations.parse(warmUp),
                        Durations.parse(measured),
                        partitions,
                        out),
                System.out);
        return 0;
    }
}
