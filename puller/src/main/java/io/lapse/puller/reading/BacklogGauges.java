package io.lapse.puller.reading;

import io.lapse.metrics.MetricNames;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backlog of the expired topic per partition: expiries not answered yet (from the first unanswered one to the end
 * of the partition, read or not) and the age of the oldest one read; the pulls parked on the partitions of the parked
 * topic this instance reads ({@code lapse_puller_held}); the backlog of all of them, from which {@link DrainRate}
 * tells the time to drain; and the expiries in flight. Refreshed every few seconds on the consumer's thread; while
 * the partitions are paused this is where an outage shows.
 */
public final class BacklogGauges {

    private static final Logger log = LoggerFactory.getLogger(BacklogGauges.class);
    private static final long REFRESH_NANOS = Duration.ofSeconds(2).toNanos();
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(1);

    private final Consumer<byte[], byte[]> consumer;
    private final InOrderCommits commits;
    private final String parkedTopic;
    private final Clock clock;
    private final MultiGauge size;
    private final MultiGauge age;
    private long nextRefresh = System.nanoTime();
    private volatile long all;
    private volatile long held;

    public BacklogGauges(
            Consumer<byte[], byte[]> consumer,
            InOrderCommits commits,
            String parkedTopic,
            DrainRate drain,
            Clock clock,
            MeterRegistry registry) {
        this.consumer = consumer;
        this.commits = commits;
        this.parkedTopic = parkedTopic;
        this.clock = clock;
        this.size = MultiGauge.builder("lapse.puller.backlog")
                .description("Expiries of the partition not answered yet, read or not")
                .register(registry);
        this.age = MultiGauge.builder("lapse.puller.backlog.age")
                .baseUnit("seconds")
                .description("Age of the oldest expiry of the partition read and not answered yet")
                .register(registry);
        Gauge.builder(MetricNames.PULLER_BACKLOG_ALL, this, BacklogGauges::all)
                .description("Expiries not answered yet, read or not, parked ones included, summed over the "
                        + "partitions this instance reads")
                .strongReference(true)
                .register(registry);
        Gauge.builder(MetricNames.PULLER_HELD, this, b -> b.held)
                .description("Pulls parked until upstream answers them: records of the parked topic's partitions "
                        + "this instance reads, not answered yet (lapse cancel ORDER lets one go)")
                .strongReference(true)
                .register(registry);
        Gauge.builder("lapse.puller.in.flight", commits, InOrderCommits::inFlight)
                .description("Expiries polled whose result (or parked record) Kafka has not acknowledged yet")
                .strongReference(true)
                .register(registry);
        Gauge.builder(MetricNames.PULLER_DRAIN_RATE, drain, DrainRate::perSecond)
                .description("Expiries answered per second over the last minute")
                .strongReference(true)
                .register(registry);
        Gauge.builder(MetricNames.PULLER_DRAIN_ETA, this, b -> DrainRate.secondsToDrain(b.all, drain.perSecond()))
                .baseUnit("seconds")
                .description("Seconds until the backlog is drained at the drain rate: 0 without a backlog, -1 while "
                        + "there is one and nothing was answered within the last minute")
                .strongReference(true)
                .register(registry);
    }

    /** Expiries not answered yet over every partition read, as of the last refresh; readable from any thread. */
    long all() {
        return all;
    }

    void refreshWhenDue() {
        long now = System.nanoTime();
        if (now - nextRefresh < 0) {
            return;
        }
        nextRefresh = now + REFRESH_NANOS;
        Set<TopicPartition> assigned = consumer.assignment();
        Map<TopicPartition, Long> ends;
        try {
            ends = consumer.endOffsets(assigned, ASK_TIMEOUT);
        } catch (WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            log.debug("end offsets of {} unknown for now: {}", assigned, e.toString());
            return;
        }
        List<MultiGauge.Row<?>> sizes = new ArrayList<>();
        List<MultiGauge.Row<?>> ages = new ArrayList<>();
        long sum = 0;
        long parked = 0;
        long millis = clock.millis();
        for (TopicPartition partition : assigned) {
            OptionalLong from = commits.firstUnanswered(partition);
            long start = from.isPresent() ? from.getAsLong() : position(partition);
            Long end = ends.get(partition);
            if (start < 0 || end == null) {
                continue;
            }
            long unanswered = Math.max(0, end - start);
            if (partition.topic().equals(parkedTopic)) {
                parked += unanswered;
                continue;
            }
            Tags tags = Tags.of("partition", Integer.toString(partition.partition()));
            sum += unanswered;
            sizes.add(MultiGauge.Row.of(tags, unanswered));
            OptionalLong oldest = commits.oldestUnansweredTimestamp(partition);
            ages.add(MultiGauge.Row.of(
                    tags, oldest.isPresent() ? Math.max(0, millis - oldest.getAsLong()) / 1000.0 : 0));
        }
        all = sum + parked;
        held = parked;
        size.register(sizes, true);
        age.register(ages, true);
    }

    private long position(TopicPartition partition) {
        try {
            return consumer.position(partition, ASK_TIMEOUT);
        } catch (WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            return -1;
        }
    }
}
