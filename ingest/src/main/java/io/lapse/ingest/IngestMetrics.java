package io.lapse.ingest;

import io.lapse.event.StatusReader;
import io.lapse.metrics.MetricNames;
import io.lapse.store.timers.ApplyResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.kafka.common.TopicPartition;

/**
 * What ingest counts: records read per topic, what they did to the timers, event times a rule replaced, and how long
 * a batch takes.
 */
final class IngestMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> recordsByTopic = new ConcurrentHashMap<>();
    private final Map<String, Counter> lateByTopic = new ConcurrentHashMap<>();
    private final Map<String, Counter> aheadByTopic = new ConcurrentHashMap<>();
    private final Map<TopicPartition, AtomicLong> skewByPartition = new ConcurrentHashMap<>();
    private final Counter armed;
    private final Counter ended;
    private final Counter ignored;
    private final Map<StatusReader.Correction, Counter> corrected = new EnumMap<>(StatusReader.Correction.class);
    final Timer batch;
    final Timer proofRoundTrip;
    private final Timer behindMark;

    IngestMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.armed = updates("armed");
        this.ended = updates("ended");
        this.ignored = updates("ignored");
        for (StatusReader.Correction rule : StatusReader.Correction.values()) {
            corrected.put(
                    rule,
                    Counter.builder("lapse.ingest.event.time.corrected")
                            .tag("rule", rule.name().toLowerCase(Locale.ROOT))
                            .description(
                                    "Statuses whose ts was replaced: too far in the future, or absurdly old (0, seconds)")
                            .register(registry));
        }
        this.batch = Timer.builder("lapse.ingest.batch")
                .description("Time to apply one polled batch to Redis")
                .register(registry);
        // a histogram, since its tail is what a quiet partition's watermark trails the clock by
        this.proofRoundTrip = Timer.builder(MetricNames.INGEST_PROOF_ROUND_TRIP)
                .description("From asking the broker how far the partitions reach to its answer, which lets the "
                        + "watermarks of caught-up partitions move to the moment it was asked")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(5))
                .register(registry);
        // what timer.watermark-slack must cover: its tail tells whether the slack is long enough for these producers
        this.behindMark = Timer.builder(MetricNames.INGEST_RECORD_BEHIND_MARK)
                .description("How far behind its partition's watermark (before timer.watermark-slack comes off) a "
                        + "record's timestamp lay when ingest read it, for records that arrived behind it: producers "
                        + "linger and retry, so a record can be appended after newer ones and after the broker's "
                        + "proof; beyond the slack it is late")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(60))
                .register(registry);
    }

    private Counter updates(String result) {
        return Counter.builder("lapse.ingest.updates")
                .tag("result", result)
                .description("Orders whose timer a batch armed, ended or left alone")
                .register(registry);
    }

    void watchHeldBack(LongSupplier millis) {
        Gauge.builder(MetricNames.INGEST_WATERMARK_HELD_BACK, () -> millis.getAsLong() / 1000.0)
                .baseUnit("seconds")
                .description("How far ingest holds its watermarks back because records arrived late lately")
                .register(registry);
    }

    /** Beside the slack, so that an alert compares the two: abs(skew) > slack. */
    void watchRedisClockSkew(LongSupplier millis, Duration slack) {
        Gauge.builder("lapse.ingest.redis.clock.skew", () -> millis.getAsLong() / 1000.0)
                .baseUnit("seconds")
                .description("How far ingest's clock runs ahead of Redis's (negative: behind); beyond "
                        + "timer.watermark-slack ahead, the timer may fire orders whose pushes are unread")
                .register(registry);
        Gauge.builder("lapse.ingest.watermark.slack", slack, s -> s.toMillis() / 1000.0)
                .baseUnit("seconds")
                .description("timer.watermark-slack: the clock skew between hosts that the watermark allows")
                .register(registry);
    }

    void lateRecord(String topic) {
        lateByTopic
                .computeIfAbsent(
                        topic,
                        t -> Counter.builder("lapse.ingest.records.late")
                                .tag("topic", t)
                                .description(
                                        "Records read after the watermark had passed them by more than timer.watermark-slack")
                                .register(registry))
                .increment();
    }

    /** A record stamped later than ingest read it: its producer's clock runs ahead of ingest's by at least that. */
    void recordAhead(TopicPartition partition, long aheadByMillis) {
        aheadByTopic
                .computeIfAbsent(
                        partition.topic(),
                        t -> Counter.builder("lapse.ingest.records.ahead")
                                .tag("topic", t)
                                .description("Records whose timestamp lies after the moment ingest read them: their "
                                        + "producer's clock runs fast; they move their partition's watermark by "
                                        + "timer.watermark-slack at most")
                                .register(registry))
                .increment();
        skewByPartition
                .computeIfAbsent(partition, p -> {
                    AtomicLong skew = new AtomicLong();
                    Gauge.builder("lapse.ingest.producer.ahead", skew, s -> s.get() / 1000.0)
                            .tag("partition", p.topic() + "/" + p.partition())
                            .baseUnit("seconds")
                            .description("How far ahead of ingest's clock the newest record stamped ahead was")
                            .register(registry);
                    return skew;
                })
                .set(aheadByMillis);
    }

    void behindMark(long millis) {
        behindMark.record(millis, TimeUnit.MILLISECONDS);
    }

    void read(String topic, int records) {
        recordsByTopic
                .computeIfAbsent(
                        topic,
                        t -> Counter.builder(MetricNames.INGEST_RECORDS)
                                .tag("topic", t)
                                .description("Records ingest consumed")
                                .register(registry))
                .increment(records);
    }

    void eventTimeCorrected(StatusReader.Correction rule) {
        corrected.get(rule).increment();
    }

    void applied(ApplyResult result) {
        armed.increment(result.armed());
        ended.increment(result.ended());
        ignored.increment(result.ignored());
    }
}
