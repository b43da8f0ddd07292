package io.lapse.devtools;

import io.lapse.config.Durations;
import io.lapse.faults.soak.Capacity;
import io.lapse.faults.soak.SoakFault;
import io.lapse.faults.soak.SoakOptions;
import io.lapse.faults.soak.SoakResult;
import io.lapse.faults.soak.SoakRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "soak",
        description = "Soak the whole pipeline: a broker, redis-server, each service as its own `java -jar lapse.jar`"
                + " process and a load generator in its own process pushing N orders with the churn of real charging"
                + " (sessions of 30-90 minutes, 1 %% going silent). Prints a line every 30 s and a summary (lags and"
                + " whether they grow, watermark age, fire lateness, false and missed expiries, CPU, memory and GC of"
                + " every process, Redis and compensator bytes per order), and writes CSV and PNG plots.")
final class SoakBenchCommand implements Callable<Integer> {

    private static final SoakOptions DEFAULTS = SoakOptions.defaults();

    @Option(names = "--orders", description = "Active orders (default 1000000).")
    int orders = DEFAULTS.orders();

    @Option(
            names = "--duration",
            description = "How long the load runs once every service is ready (default 10m; 3m per size with"
                    + " --find-capacity).")
    String duration;

    @Option(names = "--push-interval", description = "Every order pushes this often (default 15s).")
    String pushInterval = Durations.format(DEFAULTS.pushInterval());

    @Option(names = "--ttl", description = "timer.ttl (default 90s).")
    String ttl = Durations.format(DEFAULTS.ttl());

    @Option(names = "--silent", description = "Share of the orders that go silent for good during the run (0.01).")
    double silent = DEFAULTS.silent();

    @Option(names = "--partitions", description = "Partitions of every topic (default 6).")
    int partitions = DEFAULTS.partitions();

    @Option(names = "--out", paramLabel = "DIR", description = "Where each run writes its folder (target/soak).")
    Path out = DEFAULTS.out();

    @Option(
            names = "--fault",
            paramLabel = "NAME",
            description = "Break something while the silent orders fall due: freeze-ingest, flush-redis or kill-timer.")
    String fault;

    @Option(
            names = "--find-capacity",
            description = "Soak at rising sizes (--sizes) and report the largest whose lags do not grow, with no false"
                    + " or missed expiry; ignores --orders.")
    boolean findCapacity;

    @Option(
            names = "--sizes",
            split = ",",
            description = "Orders per soak of --find-capacity (default 100000,250000,500000,1000000,2000000).")
    List<Integer> sizes = Capacity.SIZES;

    @Override
    public Integer call() {
        Duration length =
                duration != null ? Durations.parse(duration) : findCapacity ? Capacity.SOAK : DEFAULTS.duration();
        SoakOptions options = new SoakOptions(
                orders,
                length,
                Durations.parse(pushInterval),
                Durations.parse(ttl),
                silent,
                DEFAULTS.sessionMin(),
                DEFAULTS.sessionMax(),
                partitions,
                out,
                fault == null ? null : SoakFault.parse(fault));
        if (findCapacity) {
            return Capacity.find(options, sizes, System.out) > 0 ? 0 : 1;
        }
        SoakResult result = SoakRun.run(options, System.out);
        return result.falseExpiries() == 0 && result.missed() == 0 ? 0 : 1;
    }
}
