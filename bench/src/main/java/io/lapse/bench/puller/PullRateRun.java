package io.lapse.bench.puller;

import io.lapse.bench.harness.PulledLog;
import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.harness.RunSandbox;
import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStack;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.simulator.FaultSettings;
import io.lapse.simulator.Outage;
import io.lapse.simulator.SimulatorSettings;
import io.lapse.simulator.UpstreamSimulator;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sustained pulls at one rate limit: as many expiries as the rate allows in the run length wait in the expired topic,
 * then the puller answers them against the simulated upstream; the rate is taken over the middle 90 % of the pulls,
 * so that the start and the tail do not count.
 */
public final class PullRateRun {

    private static final Logger log = LoggerFactory.getLogger(PullRateRun.class);
    private static final double TRIM = 0.05;

    private PullRateRun() {}

    static PullRateResult run(DevStack stack, RedisProbe probe, PullerBenchOptions options, int rateLimit)
            throws Exception {
        int concurrency = options.concurrencyFor(rateLimit);
        int pulls = (int) (rateLimit * options.runLength().toSeconds());
        Map<String, String> settings = options.pullerSettings(rateLimit);
        try (RunSandbox sandbox = RunSandbox.open(stack, probe, "pull-rate-" + rateLimit, settings);
                UpstreamSimulator upstream =
                        simulatedUpstream(sandbox, options.latency(), Duration.ofHours(1), options.bulkSize())) {
            List<String> orders = upstream.fleet().startMany(pulls, "rate-");
            // created as the puller would, before anything is written to them
            new TopicProvisioner(sandbox.clients)
                    .ensure(Set.of(
                            sandbox.config.topics().expired(),
                            sandbox.config.topics().pulled(),
                            sandbox.config.topics().dlq()));
            writeExpiries(sandbox, orders);
            LapseConfig config = sandbox.config.with(Map.of("upstream.base-url", upstream.baseUrl()));
            log.info(
                    "pull rate {}/s: {} expiries waiting, {} pull threads, bulk size {}",
                    rateLimit,
                    pulls,
                    concurrency,
                    options.bulkSize());
            try (PulledLog pulled =
                    new PulledLog(stack.bootstrapServers(), config.topics().pulled(), 0)) {
                // after the log's reader started, so that its thread is not taken for the puller's
                PullerCpu cpu = PullerCpu.beforeStart();
                try (BenchPuller puller = BenchPuller.start(config)) {
                    cpu.ready();
                    long deadline = System.nanoTime()
                            + options.runLength().multipliedBy(4).toNanos();
                    while (pulled.results().size() < pulls && System.nanoTime() < deadline) {
                        Thread.sleep(200);
                        pulled.refresh();
                    }
                    PullerCpu.Used used = cpu.used();
                    long[] times = pulled.results().stream()
                            .mapToLong(PullResult::pulledAt)
                            .sorted()
                            .toArray();
                    return PullRateResult.of(
                            rateLimit,
                            concurrency,
                            options.bulkSize(),
                            pulls,
                            times,
                            TRIM,
                            pulled.count(PullResult.Outcome.OK),
                            upstream.api().peakRequestsPerSecond(),
                            upstream.api().bulkRequests(),
                            puller.requestMillis(),
                            puller.permitWaitMillis(),
                            used);
                }
            }
        }
    }

    public static UpstreamSimulator simulatedUpstream(RunSandbox sandbox, Duration latency, Duration pushInterval) {
        return simulatedUpstream(sandbox, latency, pushInterval, 0);
    }

    /** @param bulkSize above 0: the simulator serves bulk requests too */
    static UpstreamSimulator simulatedUpstream(
            RunSandbox sandbox, Duration latency, Duration pushInterval, int bulkSize) {
        SimulatorSettings settings = SimulatorSettings.manual(pushInterval)
                .withFaults(FaultSettings.none().withLatency(latency), Outage.none());
        UpstreamSimulator upstream = new UpstreamSimulator(
                settings, sandbox.clients, sandbox.config.topics().push(), Clock.systemUTC());
        upstream.start();
        if (bulkSize > 0) {
            upstream.api().serveBulk(PullerBenchOptions.BULK_PATH);
        }
        return upstream;
    }

    private static void writeExpiries(RunSandbox sandbox, List<String> orders) {
        long lastSeen = System.currentTimeMillis() - 60_000;
        // one request in flight: Kafka before 4.5 may drop the first batch sent to a new partition (KAFKA-15591)
        try (KafkaProducer<byte[], byte[]> producer = sandbox.clients.producer(
                "bench-expiries", Map.of(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1))) {
            for (String id : orders) {
                TimerExpired expiry = new TimerExpired(
                        id,
                        lastSeen + 30_000,
                        lastSeen,
                        1,
                        System.currentTimeMillis(),
                        TimerExpired.Source.TIMER,
                        false);
                producer.send(new ProducerRecord<>(
                        sandbox.config.topics().expired(),
                        id.getBytes(StandardCharsets.UTF_8),
                        JsonCodec.TIMER_EXPIRED.encode(expiry)));
            }
        }
    }
}
