package io.lapse.faults.soak.fault;

import io.lapse.bench.harness.ExpiryCollector;
import io.lapse.bench.harness.PulledLog;
import io.lapse.bench.storm.PushLog;
import io.lapse.bench.storm.StormBenchOptions;
import io.lapse.bench.storm.StormPlot;
import io.lapse.bench.storm.StormSampler;
import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import io.lapse.config.LapseConfig;
import io.lapse.devstack.TopicRecorder;
import io.lapse.event.FleetEvent;
import io.lapse.event.JsonCodec;
import io.lapse.faults.lab.LapseServices;
import io.lapse.faults.lab.Role;
import io.lapse.faults.soak.load.LoadProcess;
import io.lapse.faults.soak.settings.SoakFault;
import io.lapse.faults.soak.settings.SoakOptions;
import io.lapse.faults.waiting.Waiting;
import io.lapse.kafka.KafkaClients;
import io.lapse.metrics.MetricNames;
import io.lapse.operations.status.PrometheusText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The soak's expiry storm ({@link SoakFault#FLEET_SILENCE}): the load generator stops every push at
 * {@link SoakOptions#stormAt()} and resumes them after the storm; this follows it, samples the puller's backlog and
 * the upstream's calls while it lasts, waits until the backlog is drained, the fleet-silence condition cleared and
 * the resumed orders have had a ttl to be fired falsely, and then tallies what the topics show.
 */
public final class FleetSilenceStorm {

    private static final Logger log = LoggerFactory.getLogger(FleetSilenceStorm.class);
    private static final Duration SLACK = Duration.ofMinutes(2);
    private static final String BACKLOG = MetricNames.prometheus(MetricNames.PULLER_BACKLOG_ALL, "");
    private static final String SKIPPED_ALREADY_PULLED =
            MetricNames.prometheus(MetricNames.PULLER_SKIPPED_ALREADY_PULLED, "_total");

    private final SoakOptions options;
    private final Path dir;
    private final String bootstrapServers;
    private final Map<ConfigKey, String> settings;
    private final LoadProcess load;
    private final LapseServices services;

    public FleetSilenceStorm(
            SoakOptions options,
            Path dir,
            String bootstrapServers,
            Map<ConfigKey, String> settings,
            LoadProcess load,
            LapseServices services) {
        this.options = options;
        this.dir = dir;
        this.bootstrapServers = bootstrapServers;
        this.settings = settings;
        this.load = load;
        this.services = services;
    }

    /** The settings the storm needs of the services: the storm benchmark's fleet window and baseline. */
    public static Map<ConfigKey, String> serviceSettings(StormBenchOptions storm) {
        return Map.of(
                ConfigKeys.FLEET_WINDOW, storm.fleetWindow().toMillis() + "ms",
                ConfigKeys.FLEET_BASELINE, storm.fleetBaseline().toMillis() + "ms");
    }

    /** Follows the storm from before it begins until it has settled; call before {@link SoakOptions#stormAt()}. */
    public StormOutcome measure() {
        StormBenchOptions bench = options.stormBench(dir.resolve("storm.png"));
        long silenceStart = awaitStorm(
                "stop its pushes", load::stormBegan, options.stormAt().plus(SLACK));
        long callsBefore = load.stats().upstreamCalls();
        try (ExpiryCollector expired = ExpiryCollector.start(bootstrapServers, settings.get(ConfigKeys.TOPIC_EXPIRED));
                TopicRecorder fleetEvents =
                        TopicRecorder.start(bootstrapServers, settings.get(ConfigKeys.TOPIC_FLEET_EVENTS));
                PulledLog pulled =
                        new PulledLog(bootstrapServers, settings.get(ConfigKeys.TOPIC_PULLED), silenceStart);
                StormSampler sampler = StormSampler.start(
                        silenceStart, this::backlog, () -> load.stats().upstreamCalls())) {
            long resumed = awaitStorm(
                    "resume its pushes", load::stormEnded, options.storm().plus(SLACK));
            // an expiry that fires for a resumed order does so within a ttl of its first push, by a push interval
            long settled = resumed
                    + options.ttl().plus(options.pushInterval().multipliedBy(2)).toMillis();
            Duration tail = Duration.ofMillis(Math.max(0, settled - System.currentTimeMillis()))
                    .plus(bench.fleetWindow().multipliedBy(2))
                    .plus(SLACK);
            // what does not settle in time is reported as it stands, not lost with the run
            if (!Waiting.until(
                    () -> System.currentTimeMillis() >= settled && backlog() == 0 && silenceEnded(fleetEvents), tail)) {
                log.warn("the storm's backlog did not drain or its silence did not end within {} s", tail.toSeconds());
            }
            pulled.refresh();
            KafkaClients clients = new KafkaClients(LapseConfig.load(null, Map.of())
                    .with(Map.of(ConfigKeys.KAFKA_BOOTSTRAP_SERVERS.name(), bootstrapServers))
                    .kafka());
            StormOutcome outcome = new StormTally(silenceStart, resumed, terminalStatuses())
                    .tally(
                            bench,
                            expired.expiries(),
                            pulled.results(),
                            pulled.firstOkSince(),
                            fleetEvents.values(JsonCodec.FLEET_EVENT::decode),
                            from -> PushLog.since(
                                    clients, settings.get(ConfigKeys.TOPIC_PUSH), from, PushLog.Timing.SENT),
                            load.stats().upstreamCalls() - callsBefore,
                            (long) puller(SKIPPED_ALREADY_PULLED),
                            sampler,
                            bench.plot());
            StormPlot.write(outcome.figures(), outcome.plot());
            return outcome;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the storm's plot into " + dir, e);
        }
    }

    /** @return the moment the generator names, epoch ms */
    private static long awaitStorm(String what, Supplier<OptionalLong> at, Duration within) {
        if (!Waiting.until(() -> at.get().isPresent(), within)) {
            throw new IllegalStateException(
                    "the load generator did not " + what + " within " + within.toSeconds() + " s");
        }
        return at.get().getAsLong();
    }

    /** The puller's backlog gauge, -1 while it does not answer with one. */
    private long backlog() {
        double backlog = puller(BACKLOG);
        return Double.isNaN(backlog) ? -1 : (long) backlog;
    }

    private double puller(String metric) {
        return PrometheusText.sum(services.first(Role.PULLER).metricsPage(), metric);
    }

    private static boolean silenceEnded(TopicRecorder fleetEvents) {
        return fleetEvents.values(JsonCodec.FLEET_EVENT::decode).stream()
                .anyMatch(e -> e.event() == FleetEvent.Kind.SILENCE_ENDED);
    }

    private Set<String> terminalStatuses() {
        String statuses = settings.getOrDefault(
                ConfigKeys.TIMER_TERMINAL_STATUSES, ConfigKeys.TIMER_TERMINAL_STATUSES.defaultValue());
        return Arrays.stream(statuses.split(","))
                .map(s -> s.trim().toUpperCase(Locale.ROOT))
                .collect(Collectors.toSet());
    }
}
