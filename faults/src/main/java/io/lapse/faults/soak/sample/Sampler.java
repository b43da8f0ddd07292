package io.lapse.faults.soak.sample;

import io.lapse.bench.lateness.Lateness;
import io.lapse.compensator.fold.CompensatorTopology;
import io.lapse.config.ConfigSource;
import io.lapse.config.LapseConfig;
import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.soak.judge.Judge;
import io.lapse.faults.soak.judge.Verdicts;
import io.lapse.faults.soak.load.LoadProcess;
import io.lapse.faults.soak.load.LoadStats;
import io.lapse.faults.soak.report.Growth;
import io.lapse.faults.soak.settings.SoakOptions;
import io.lapse.kafka.GroupLag;
import io.lapse.lifecycle.ServiceName;
import io.lapse.metrics.MetricNames;
import io.lapse.operations.status.PrometheusText;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Takes a {@link SoakSample}: the load's rate, every group's lag, the timer's watermark, CPU, memory and GC of every
 * process, the stores' sizes, and the judge's verdicts with the lateness of the expiries since the previous sample.
 * Used from one thread.
 */
public final class Sampler {

    /** The label of the compensator's streams' group; its push folder's group carries the service's name. */
    static final String MIRROR = "mirror";

    /** The labels of the consumer groups a soak follows ({@link #groups}), in pipeline order. */
    public static final List<String> GROUPS =
            List.copyOf(groups(LapseConfig.from(ConfigSource.defaults())).keySet());

    /**
     * The consumer groups a soak follows, by label: the group of every service that reads records, by the service's
     * command ({@link ServiceName#readingGroups}), the compensator's as two: its push folder's, which reads the pushes
     * and commits them once a round, and its streams' ({@link #MIRROR}), which fold them, the pull results and the
     * expiries into the mirror.
     */
    public static Map<String, String> groups(LapseConfig config) {
        Map<String, String> groups = new LinkedHashMap<>();
        ServiceName.readingGroups(ServiceName.ALL, config).forEach((service, group) -> {
            if (service.equals(ServiceName.COMPENSATOR.command())) {
                groups.put(service, CompensatorTopology.pushGroup(group));
                groups.put(MIRROR, group);
            } else {
                groups.put(service, group);
            }
        });
        return groups;
    }

    /**
     * The lag a group is judged by ({@link Growth}): its lag in seconds, but for a group that commits once a round by
     * design (the compensator's push folder, every compensator.scan-interval) the least of it over the last round,
     * which is the lag right after its latest hand-over: a sawtooth of a round's height whose floor rises only when it
     * falls behind.
     */
    public static String judgedLag(String group) {
        return "lag." + group + ".judged";
    }

    private final SoakOptions options;
    private final long startedAt;
    private final Map<String, String> groups;
    private final Map<String, Supplier<LapseProcess>> services;
    private final Map<String, LongSupplier> pids;
    private final LagProbe lags;
    private final StoreProbe stores;
    private final LoadProcess load;
    private final Judge judge;
    private final Map<String, ProcessUsage> usage = new HashMap<>();
    private final Map<String, Long> usagePid = new HashMap<>();
    private final BrokerRequests requests;
    /** Each counted process's requests at the previous sample, and its pid then. */
    private final Map<String, double[]> lastRequests = new HashMap<>();
    /** The floors of the lags of the groups that commit once a round, by group. */
    private final Map<String, RoundFloor> floors = new HashMap<>();

    private long lastSampledAt;
    private long lastPushesSent;

    /**
     * @param groups   group id by its label ({@link #groups})
     * @param rounds   how long the groups that commit once a round hold their records back, by the name of their
     *                 service
     * @param services each Lapse service's current process, by service name
     * @param pids     every process to watch (the services too), by name
     */
    public Sampler(
            SoakOptions options,
            long startedAt,
            Map<String, String> groups,
            Map<String, Supplier<LapseProcess>> services,
            Map<String, LongSupplier> pids,
            LagProbe lags,
            StoreProbe stores,
            LoadProcess load,
            Judge judge,
            BrokerRequests requests,
            Map<String, Duration> rounds) {
        this.options = options;
        this.startedAt = startedAt;
        this.groups = Map.copyOf(groups);
        this.services = new LinkedHashMap<>(services);
        this.pids = new LinkedHashMap<>(pids);
        this.lags = lags;
        this.stores = stores;
        this.load = load;
        this.judge = judge;
        this.requests = requests;
        rounds.forEach((group, round) -> floors.put(group, new RoundFloor(round)));
        this.lastSampledAt = startedAt;
    }

    SoakSample sample() {
        long now = System.currentTimeMillis();
        Map<String, Double> f = new LinkedHashMap<>();
        LoadStats stats = load.stats();
        double seconds = Math.max(1, now - lastSampledAt) / 1000.0;
        f.put("pushes.target", stats.pushing() / (options.pushInterval().toMillis() / 1000.0));
        f.put("pushes.rate", (stats.pushesSent() - lastPushesSent) / seconds);
        f.put("pushes.sent", (double) stats.pushesSent());
        f.put("pushes.failed", (double) stats.pushesFailed());
        f.put("load.behind.seconds", stats.behindMillis() / 1000.0);
        f.put("finished.orders", (double) stats.finished());
        f.put("missed.pushes", (double) stats.missedPushes());
        lastPushesSent = stats.pushesSent();
        for (String service : GROUPS) {
            putLag(f, service, now);
        }
        Map<String, String> pages = new HashMap<>();
        services.forEach((name, process) -> pages.put(name, process.get().metricsPage()));
        f.put(
                "watermark.age.seconds",
                PrometheusText.sum(
                        pages.get("timer"), MetricNames.prometheus(MetricNames.TIMER_WATERMARK_AGE, "_seconds")));
        pids.forEach((name, pid) -> {
            ProcessUsage.Sample sample = usage(name, pid.getAsLong()).sample();
            f.put("cpu." + name, sample.cores());
            f.put("rss.mb." + name, sample.rssBytes() / 1048576.0);
        });
        pages.forEach(
                (name, page) -> f.put("gc.seconds." + name, PrometheusText.sum(page, "jvm_gc_pause_seconds_sum")));
        for (String service : services.keySet()) {
            long pid = pids.get(service).getAsLong();
            f.put("requests." + service, requestRate(service, pid, requests.sentBy(pid), now));
        }
        long broker = pids.get("broker").getAsLong();
        f.put("requests.broker", requestRate("broker", broker, requests.receivedBy(broker), now));
        f.put("redis.used_memory", readOrNaN(stores::redisUsedMemory));
        f.put("compensator.state.bytes", readOrNaN(stores::stateDirBytes));
        f.put("compensator.changelog.bytes", readOrNaN(stores::changelogBytes));
        Verdicts verdicts = judge.verdicts();
        f.put("expiries", (double) verdicts.expiries());
        f.put("false", (double) verdicts.falseExpiries());
        f.put("revived", (double) verdicts.revived());
        f.put("silent", (double) verdicts.silent());
        f.put("fired", (double) verdicts.fired());
        f.put("missed", (double) verdicts.missed());
        f.put("pending", (double) verdicts.pending());
        long[] late = judge.lateness(lastSampledAt, now);
        Lateness lateness = Lateness.of(late);
        f.put("late.count", (double) late.length);
        f.put("late.p50.seconds", late.length == 0 ? Double.NaN : lateness.p50() / 1000.0);
        f.put("late.p99.seconds", late.length == 0 ? Double.NaN : lateness.p99() / 1000.0);
        f.put("late.max.seconds", late.length == 0 ? Double.NaN : lateness.max() / 1000.0);
        lastSampledAt = now;
        return new SoakSample((now - startedAt) / 1000.0, f);
    }

    /** Requests a second since the previous sample; NaN at the first, and when the process or its count is new. */
    private double requestRate(String name, long pid, double total, long now) {
        double[] before = lastRequests.put(name, new double[] {pid, total, now});
        if (before == null || before[0] != pid || Double.isNaN(total) || total < before[1] || now <= before[2]) {
            return Double.NaN;
        }
        return (total - before[1]) / ((now - before[2]) / 1000.0);
    }

    /** The least lag of the group over its last round, or its lag when it commits as it goes. */
    private double judged(String group, long now, double seconds) {
        RoundFloor floor = floors.get(group);
        return floor == null || Double.isNaN(seconds) ? seconds : floor.add(now, seconds);
    }

    /** The service's lag in records and in seconds, and the judged lag. */
    private void putLag(Map<String, Double> f, String service, long now) {
        double records = Double.NaN;
        double seconds = Double.NaN;
        try {
            GroupLag lag = lags.lag(groups.get(service));
            double age = lags.oldestAgeSeconds(lag);
            records = lag.total();
            seconds = age;
        } catch (RuntimeException e) {
            // the broker is busy or away; the sample shows NaN rather than a made-up 0
        }
        f.put("lag." + service + ".records", records);
        f.put("lag." + service + ".seconds", seconds);
        f.put(judgedLag(service), judged(service, now, seconds));
    }

    private ProcessUsage usage(String name, long pid) {
        if (!Long.valueOf(pid).equals(usagePid.get(name))) {
            usagePid.put(name, pid);
            usage.put(name, new ProcessUsage(pid));
        }
        return usage.get(name);
    }

    private static double readOrNaN(LongSupplier figure) {
        try {
            return figure.getAsLong();
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }
}
