package io.lapse.faults.soak.fault;

import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import io.lapse.devstack.KafkaBrokerProcess;
import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.lab.LapseServices;
import io.lapse.faults.lab.Role;
import io.lapse.faults.soak.judge.Judge;
import io.lapse.faults.soak.sample.LagProbe;
import io.lapse.faults.soak.sample.SoakSample;
import io.lapse.faults.soak.sample.StoreProbe;
import io.lapse.faults.soak.settings.SoakOptions;
import io.lapse.faults.waiting.Waiting;
import io.lapse.metrics.MetricNames;
import io.lapse.operations.status.PrometheusText;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Breaks one thing under full load while silent orders fall due, and measures what it cost; the run's judge counts the false,
 * missed and revived expiries of the whole run, which the summary prints beside this.
 */
public final class FaultAtScale {

    private static final Duration FREEZE = Duration.ofSeconds(10);
    private static final Duration RECOVERY_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final String SCAN_LAST = MetricNames.prometheus(MetricNames.COMPENSATOR_SCAN_LAST, "_seconds");
    private static final String FULL_SCAN_DURATION =
            MetricNames.prometheus(MetricNames.COMPENSATOR_SCAN_DURATION, "_seconds");
    /** A lag is back to its steady state when it is within this much of its median before the fault. */
    private static final double STEADY_MARGIN_SECONDS = 1;

    private final SoakOptions options;
    private final LapseServices services;
    private final StoreProbe stores;
    private final KafkaBrokerProcess broker;
    private final Map<ConfigKey, String> settings;
    private final List<SoakSample> samples;
    private final Judge judge;

    public FaultAtScale(
            SoakOptions options,
            LapseServices services,
            StoreProbe stores,
            KafkaBrokerProcess broker,
            Map<ConfigKey, String> settings,
            List<SoakSample> samples,
            Judge judge) {
        this.options = options;
        this.services = services;
        this.stores = stores;
        this.broker = broker;
        this.settings = settings;
        this.samples = samples;
        this.judge = judge;
    }

    public String inject() {
        return switch (options.fault()) {
            case FREEZE_INGEST -> freezeIngest();
            case FLUSH_REDIS -> flushRedis();
            case KILL_TIMER -> killTimer();
            case FLEET_SILENCE ->
                throw new IllegalArgumentException(
                        "the fleet-silence storm is the load generator's to make and FleetSilenceStorm's to measure");
            case COHORT_SILENCE ->
                throw new IllegalArgumentException(
                        "the cohort's silence is the load generator's to make and FleetEventsVerdict's to judge");
        };
    }

    private String freezeIngest() {
        double steady = steadyIngestLag();
        LapseProcess ingest = services.first(Role.INGEST);
        ingest.freeze();
        Waiting.sleep(FREEZE);
        ingest.thaw();
        long thawedAt = System.currentTimeMillis();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
                LagProbe lags = new LagProbe(admin, broker.bootstrapServers())) {
            String group = settings.get(ConfigKeys.INGEST_GROUP_ID);
            long deadline = thawedAt + RECOVERY_TIMEOUT.toMillis();
            while (System.currentTimeMillis() < deadline) {
                double lag = lags.oldestAgeSeconds(lags.lag(group));
                if (lag <= steady + STEADY_MARGIN_SECONDS) {
                    return String.format(
                            Locale.ROOT,
                            "ingest frozen %d s; its lag was back to its steady state (%.1f s, within %.0f s of the"
                                    + " median before) %.1f s after the thaw; false expiries of the run: see the table",
                            FREEZE.toSeconds(),
                            lag,
                            STEADY_MARGIN_SECONDS,
                            (System.currentTimeMillis() - thawedAt) / 1000.0);
                }
                Waiting.sleep(POLL);
            }
        }
        return "ingest frozen " + FREEZE.toSeconds() + " s; its lag was not back to its steady state (median " + steady
                + " s) within " + RECOVERY_TIMEOUT.toMinutes() + " minutes of the thaw";
    }

    /** The median ingest lag in seconds of the samples so far, leaving out the first third (the start). */
    private double steadyIngestLag() {
        List<SoakSample> before;
        synchronized (samples) {
            before = List.copyOf(samples.subList(samples.size() / 3, samples.size()));
        }
        double[] lags = before.stream()
                .mapToDouble(s -> s.get("lag.ingest.seconds"))
                .filter(v -> !Double.isNaN(v))
                .sorted()
                .toArray();
        return lags.length == 0 ? 0 : lags[lags.length / 2];
    }

    private String flushRedis() {
        LapseProcess compensator = services.first(Role.COMPENSATOR);
        double before = fullScanLast(compensator);
        long flushedAt = System.currentTimeMillis();
        stores.flushRedis();
        long deadline = flushedAt + RECOVERY_TIMEOUT.toMillis();
        while (System.currentTimeMillis() < deadline) {
            double last = fullScanLast(compensator);
            if (!Double.isNaN(last) && (Double.isNaN(before) || last > before) && last * 1000 >= flushedAt - 1000) {
                return String.format(
                        Locale.ROOT,
                        "Redis flushed under load; the compensator's full rebuild completed %.1f s later"
                                + " (" + FULL_SCAN_DURATION + "{scan=\"full\"}: %.1f s);"
                                + " missed and revived orders of the run: see the table",
                        (System.currentTimeMillis() - flushedAt) / 1000.0,
                        PrometheusText.sum(compensator.metricsPage(), FULL_SCAN_DURATION, "full"));
            }
            Waiting.sleep(POLL);
        }
        return "Redis flushed under load; no full rebuild completed within " + RECOVERY_TIMEOUT.toMinutes()
                + " minutes";
    }

    private static double fullScanLast(LapseProcess compensator) {
        return PrometheusText.sum(compensator.metricsPage(), SCAN_LAST, "full");
    }

    private String killTimer() {
        LapseProcess timer = services.first(Role.TIMER);
        long killedAt = System.currentTimeMillis();
        timer.kill();
        timer.launch();
        Waiting.until(() -> timer.answers("/health/ready"), RECOVERY_TIMEOUT);
        long readyAt = System.currentTimeMillis();
        // the silent orders whose deadlines fell while it was down fire once it is back: wait out one ttl for them
        Waiting.sleep(options.ttl().plus(SoakOptions.GRACE));
        long[] late = judge.lateness(killedAt, System.currentTimeMillis());
        long slowest = Arrays.stream(late).max().orElse(-1);
        return String.format(
                Locale.ROOT,
                "timer killed (-9) and started again: ready %.1f s after the kill; of the %d expiries of silent"
                        + " orders from the kill until ttl + 10 s after it was ready, the slowest fired %s after its"
                        + " deadline",
                (readyAt - killedAt) / 1000.0,
                late.length,
                slowest < 0 ? "(none fired)" : String.format(Locale.ROOT, "%.1f s", slowest / 1000.0));
    }
}
