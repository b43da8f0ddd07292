package io.lapse.runtime.management;

import io.lapse.kafka.GroupLag;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.ServiceLoop;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;

/**
 * Records each consumer group has yet to read, from the broker's view (end offsets minus committed offsets), so that
 * lag shows even while a consumer is stuck or gone: {@code lapse.consumer.lag{group,topic}}, summed over partitions.
 * A group appears once it has committed an offset.
 */
public final class ConsumerLag implements AutoCloseable {

    static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final KafkaClients clients;
    private final List<String> groups;
    private final MeterRegistry registry;
    private final Map<List<String>, AtomicLong> lagByGroupAndTopic = new ConcurrentHashMap<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final ServiceLoop loop;
    private Admin admin; // on the loop's thread only

    public ConsumerLag(KafkaClients clients, Collection<String> groups, MeterRegistry registry) {
        this.clients = clients;
        this.groups = List.copyOf(groups);
        this.registry = registry;
        this.loop = new ServiceLoop("lapse-consumer-lag", this::measureThenPause, closing::countDown, () -> {
            if (admin != null) {
                admin.close(Duration.ofSeconds(5));
            }
        });
    }

    public ConsumerLag start() {
        if (!groups.isEmpty()) {
            loop.start();
        }
        return this;
    }

    private void measureThenPause() throws Exception {
        if (admin == null) {
            admin = clients.admin();
        }
        for (String group : groups) {
            measure(group);
        }
        closing.await(INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void measure(String group) {
        GroupLag.ofCommitted(admin, group, TIMEOUT)
                .byTopic()
                .forEach((topic, lag) -> gauge(group, topic).set(lag));
    }

    private AtomicLong gauge(String group, String topic) {
        return lagByGroupAndTopic.computeIfAbsent(List.of(group, topic), key -> {
            AtomicLong lag = new AtomicLong();
            Gauge.builder("lapse.consumer.lag", lag, AtomicLong::get)
                    .tag("group", group)
                    .tag("topic", topic)
                    .baseUnit("records")
                    .description("Records of the topic the consumer group has not committed yet")
                    .register(registry);
            return lag;
        });
    }

    /** Why its thread is dead or stuck; empty while it lives. */
    public Optional<String> livenessProblem() {
        return ServiceLoop.livenessProblemOf(loop);
    }

    @Override
    public void close() {
        loop.close();
    }
}
