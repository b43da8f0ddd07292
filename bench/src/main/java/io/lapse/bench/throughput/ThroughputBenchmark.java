package io.lapse.bench.throughput;

import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.harness.RunSandbox;
import io.lapse.bench.load.PushTopicFiller;
import io.lapse.bench.report.Rate;
import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStack;
import io.lapse.lifecycle.ServiceName;
import io.lapse.metrics.MetricNames;
import io.lapse.runtime.LapseRuntime;
import io.micrometer.core.instrument.Counter;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ingest throughput end to end (Kafka → Redis, committed) on a backlog written beforehand, next to a plain consumer
 * and plain ZADDs doing the Kafka and the Redis half of the same work: the ratios say where ingest's time goes.
 */
public final class ThroughputBenchmark {

    private static final Logger log = LoggerFactory.getLogger(ThroughputBenchmark.class);
    /** Orders the backlog cycles over: each is pushed records / 200,000 times, as in a busy hour. */
    private static final int ORDERS = 200_000;

    private static final long CHECK_EVERY_MS = 10;

    private ThroughputBenchmark() {}

    /**
     * @param records pushes to write and read back
     * @param ttl     timer.ttl of the run
     */
    public static ThroughputResult run(DevStack stack, RedisProbe probe, long records, Duration ttl) throws Exception {
        int orders = (int) Math.min(ORDERS, records);
        // no path should need more than this, even at a tenth of the goal of 100,000/s
        Duration limit = Duration.ofSeconds(Math.max(120, records / 10_000));
        Map<String, String> settings =
                Map.of("timer.mode", "zset", "timer.ttl", ttl.toMillis() + "ms", "topics.partitions", "6");
        try (RunSandbox sandbox = RunSandbox.open(stack, probe, "throughput", settings)) {
            LapseConfig config = sandbox.config;
            String topic = config.topics().push();
            stack.kafka().createTopic(topic, sandbox.partitions());
            log.info("throughput: writing {} pushes over {} orders", records, orders);
            Rate fill = PushTopicFiller.fill(sandbox.clients, topic, records, orders);
            log.info("throughput: plain consumer");
            Rate consumer = ConsumerBaseline.read(
                    sandbox.clients,
                    topic,
                    sandbox.partitions(),
                    records,
                    config.ingest().maxPollRecords(),
                    limit);
            log.info("throughput: ingest");
            Rate ingest = ingest(sandbox, records, limit);
            probe.reset();
            log.info("throughput: ZADD GT alone");
            Rate redis = ZaddBaseline.run(
                    config.redis().uri(),
                    config.redis().keyPrefix() + "-zadd",
                    config.timer().shards(),
                    records,
                    orders,
                    ttl.toMillis());
            return new ThroughputResult(records, orders, fill, consumer, ingest, redis, null);
        }
    }

    /** From start() until the group has committed the whole topic: ingest commits only what Redis acknowledged. */
    private static Rate ingest(RunSandbox sandbox, long records, Duration limit) throws Exception {
        LapseConfig config = sandbox.config;
        try (LapseRuntime lapse = new LapseRuntime(config, Clock.systemUTC())) {
            long started = System.nanoTime();
            long deadline = started + limit.toNanos();
            lapse.start(EnumSet.of(ServiceName.INGEST));
            while (System.nanoTime() < deadline) {
                // the counter moves as records are read; only the committed offsets prove they were applied
                Counter read = lapse.registry()
                        .find(MetricNames.INGEST_RECORDS)
                        .tag("topic", config.topics().push())
                        .counter();
                if (read != null && read.count() >= records && sandbox.ingestLag() == 0) {
                    return Rate.since(started, records, true);
                }
                Thread.sleep(CHECK_EVERY_MS);
            }
            return Rate.since(started, records - sandbox.ingestLag(), false);
        }
    }
}
