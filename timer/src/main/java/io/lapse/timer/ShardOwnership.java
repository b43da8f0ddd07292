package io.lapse.timer;

import io.lapse.lifecycle.ServiceLoop;
import io.lapse.lifecycle.StartupTimeline;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which timer shards this instance serves: the partitions of the shard topic that the timer consumer group assigns
 * to it. Kafka's group protocol does the coordination; nothing is ever written to or read from the topic. Overlap
 * during a rebalance is harmless, because every claim in Redis is atomic and leased.
 */
final class ShardOwnership implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ShardOwnership.class);
    private static final Duration POLL = Duration.ofMillis(200);

    private final Consumer<byte[], byte[]> consumer;
    private final int shards;
    private final Runnable onChange;
    private final ServiceLoop loop;
    private volatile Set<Integer> owned = Set.of();
    private boolean gainedBefore;

    /** @param shards timer.shards: partitions of the topic beyond it are no shard of this instance's key layout */
    ShardOwnership(Consumer<byte[], byte[]> consumer, String topic, int shards, Runnable onChange) {
        this.consumer = consumer;
        this.shards = shards;
        this.onChange = onChange;
        consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                change(partitions, false);
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                change(partitions, true);
            }
        });
        this.loop = new ServiceLoop("lapse-timer-shards", () -> consumer.poll(POLL), consumer::wakeup, consumer::close);
    }

    private void change(Collection<TopicPartition> partitions, boolean gained) {
        if (partitions.isEmpty()) {
            return;
        }
        Set<Integer> next = new TreeSet<>(owned);
        partitions.forEach(p -> {
            if (p.partition() >= shards) {
                if (gained) {
                    // a timer started with a larger timer.shards grew the topic while this one runs: no shard here
                    log.warn(
                            "assigned partition {} of the timer shard topic, but timer.shards is {}; every timer must"
                                    + " run with the same timer.shards (see \"Changing timer.shards\" in"
                                    + " docs/user-guide.md)",
                            p.partition(),
                            shards);
                }
            } else if (gained) {
                next.add(p.partition());
            } else {
                next.remove(p.partition());
            }
        });
        owned = Set.copyOf(next);
        log.info(
                "timer shards {} {}; now serving {}{}",
                gained ? "gained" : "lost",
                partitions.stream().map(TopicPartition::partition).sorted().toList(),
                new TreeSet<>(owned),
                gained && !gainedBefore
                        ? " (" + StartupTimeline.sinceProcessStart() + " after the process started)"
                        : "");
        gainedBefore |= gained;
        onChange.run();
    }

    void start() {
        loop.start();
    }

    ServiceLoop loop() {
        return loop;
    }

    Set<Integer> owned() {
        return owned;
    }

    boolean isHealthy() {
        return loop.isHealthy();
    }

    @Override
    public void close() {
        loop.close();
        owned = Set.of();
    }
}
