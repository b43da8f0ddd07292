package io.lapse.devtools;

import io.lapse.bench.puller.PullerBenchOptions;
import io.lapse.bench.puller.PullerBenchmark;
import io.lapse.config.Durations;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "puller",
        description = "Measure the puller against the simulated upstream: pulls/s sustained at each "
                + "rate limit, and how long after a 60 s outage the last silent order is pulled (about 3 minutes).")
final class PullerBenchCommand implements Callable<Integer> {

    private static final PullerBenchOptions DEFAULTS = PullerBenchOptions.defaults();

    @Option(
            names = "--rate-limits",
            split = ",",
            description = "upstream.rate-limit of each sustained run (default 200,500,1000).")
    List<Integer> rateLimits = DEFAULTS.rateLimits();

    @Option(names = "--latency", description = "Latency of every simulated upstream answer (default 50ms).")
    String latency = Durations.format(DEFAULTS.latency());

    @Option(
            names = "--silent",
            description = "Orders silent through the outage of the recovery run; 0 skips it (default 10000).")
    int silentOrders = DEFAULTS.silentOrders();

    @Option(names = "--outage", description = "How long upstream answers 503 in the recovery run (default 60s).")
    String outage = Durations.format(DEFAULTS.outage());

    @Option(
            names = "--bulk-size",
            description = "Ask the simulated upstream for up to N orders in one bulk request (upstream.bulk-size, the"
                    + " simulator serving upstream.bulk-path) while several pulls wait; 0, the default: single pulls"
                    + " only.")
    int bulkSize = DEFAULTS.bulkSize();

    @Override
    public Integer call() {
        return PullerBenchmark.run(
                new PullerBenchOptions(
                        rateLimits,
                        Durations.parse(latency),
                        DEFAULTS.runLength(),
                        silentOrders,
                        Durations.parse(outage),
                        DEFAULTS.recoveryRateLimit(),
                        bulkSize),
                System.out);
    }
}
