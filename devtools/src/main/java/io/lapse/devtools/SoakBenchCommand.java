package io.lapse.devtools;

import io.lapse.config.Durations;
import io.lapse.faults.soak.Capacity;
import io.lapse.faults.soak.SoakResult;
import io.lapse.faults.soak.SoakRun;
import io.lapse.faults.soak.settings.SoakFault;
import io.lapse.faults.soak.settings.SoakOptions;
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
                + " every process, Redis and compensator bytes per order), and writes CSV and PNG plots."
                + " --fault fleet-silence stops every push at once for --storm after the fleet-silence baseline"
                + " (fleet.window + fleet.baseline: 12 push intervals, or 7 push intervals + 10 s when that is longer) and reports the expiry"
                + " storm against the issue's goals: expiries/s, lateness p99, upstream calls per order and ttl, when"
                + " the last silent order was pulled, false expiries after the resume, the fleet silence events and"
                + " pulls after a terminal status, each met or not met, with storm.png and storm.csv."
                + " --cohorts N splits the orders into N operators of long-tail (Zipf) sizes, each push naming its"
                + " order's in operatorId (fleet.cohort-field), and reports every fleet and cohort event, of which there"
                + " must be none but those of --fault cohort-silence: the operator of about --silent of the fleet stops"
                + " pushing at once once ingest judges the cohorts, and pushes again once every order of it fired;"
                + " its COHORT_SILENCE_STARTED is due within two fleet.window. --churn adds missed pushes (1 %% of the"
                + " orders each round, a quarter of them two) to the sessions and the silent share.")
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
            description = "Break something while the silent orders fall due: freeze-ingest, flush-redis or kill-timer;"
                    + " or fleet-silence: stop every push for --storm once the fleet-silence baseline stands; or"
                    + " cohort-silence (with --cohorts): the operator of about --silent of the fleet stops pushing.")
    String fault;

    @Option(
            names = "--storm",
            description = "With --fault fleet-silence: how long every push stops (default 3m; at least two ttl).")
    String storm = Durations.format(DEFAULTS.storm());

    @Option(
            names = "--rate-limit",
            description = "The puller's upstream.rate-limit, pulls per second (default 200); the storm's drain goal"
                    + " is orders ÷ this + 10 s.")
    int rateLimit = DEFAULTS.rateLimit();

    @Option(
            names = "--bulk-size",
            description = "The puller asks the load's simulated upstream for up to N orders in one bulk request"
                    + " (upstream.bulk-size) while several pulls wait; 0, the default: single pulls only.")
    int bulkSize;

    @Option(
            names = "--cohorts",
            description = "Operators of long-tail sizes the orders belong to, named in each push's operatorId"
                    + " (fleet.cohort-field); every fleet and cohort event is reported. 0, the default: none.")
    int cohorts;

    @Option(
            names = "--churn",
            description = "Beside the sessions and the silent share, 1 %% of the orders miss a push each round (a"
                    + " quarter of them two); every fleet and cohort event is reported, and there must be none.")
    boolean churn;

    @Option(
            names = "--service-heap-mb",
            description = "The heap (-Xmx) of every service process, in MB (default 1024).")
    int serviceHeapMegabytes = DEFAULTS.serviceHeapMegabytes();

    @Option(
            names = "--scan-interval",
            description = "The compensator's compensator.scan-interval (default 60s): its push folder hands each"
                    + " order's pushes to the mirror once per interval, and its drift scan runs as often.")
    String scanInterval = Durations.format(DEFAULTS.scanInterval());

    @Option(
            names = "--profile",
            description = "Every service records a CPU profile (JFR) into the run's profiles/ folder; the soak prints"
                    + " each one's top methods at the end (profiles.md).")
    boolean profile;

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
                fault == null ? null : SoakFault.parse(fault),
                Durations.parse(storm),
                rateLimit,
                serviceHeapMegabytes,
                profile,
                bulkSize,
                Durations.parse(scanInterval),
                cohorts,
                churn);
        if (findCapacity) {
            return Capacity.find(options, sizes, System.out) > 0 ? 0 : 1;
        }
        SoakResult result = SoakRun.run(options, System.out);
        return result.falseExpiries() == 0 && result.missed() == 0 && result.fleetEventsHold() ? 0 : 1;
    }
}
