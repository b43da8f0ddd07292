package io.lapse.faults.soak.sample;

import io.lapse.faults.soak.judge.ByteConsumers;
import io.lapse.kafka.GroupLag;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Lag of a consumer group in records ({@link GroupLag}) and in seconds: the age of the first record it has not
 * committed, read back from each lagging partition. Partitions it never committed are left out.
 */
public final class LagProbe implements AutoCloseable {

    private static final Duration READ_TIMEOUT = Duration.ofMillis(500);
    /** The admin client's own default API timeout, which bounded the probe's questions before it passed one. */
    private static final Duration ADMIN_TIMEOUT = Duration.ofMinutes(1);

    private final Admin admin;
    private final KafkaConsumer<byte[], byte[]> reader;

    public LagProbe(Admin admin, String bootstrapServers) {
        this.admin = admin;
        this.reader =
                ByteConsumers.create(bootstrapServers, Map.of(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 1024));
    }

    /** Over the partitions the group has committed on. */
    public GroupLag lag(String group) {
        return GroupLag.ofCommitted(admin, group, ADMIN_TIMEOUT);
    }

    /**
     * The age of the oldest record the group has not committed, 0 when it lags on none: reads the first uncommitted
     * record of every lagging partition. A partition whose lag is only a transaction marker
     * (the compensator commits through transactions) has no record to read: it adds no age.
     */
    public double oldestAgeSeconds(GroupLag lag) {
        Map<TopicPartition, Long> lagging = lag.lagging();
        if (lagging.isEmpty()) {
            return 0;
        }
        reader.assign(lagging.keySet());
        lagging.forEach(reader::seek);
        Set<TopicPartition> unread = new HashSet<>(lagging.keySet());
        long oldest = Long.MAX_VALUE;
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (!unread.isEmpty() && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> record : reader.poll(Duration.ofMillis(100))) {
                TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                if (unread.remove(partition)) {
                    oldest = Math.min(oldest, record.timestamp());
                    reader.pause(Set.of(partition));
                }
            }
        }
        reader.resume(reader.paused());
        return oldest == Long.MAX_VALUE ? 0 : Math.max(0, System.currentTimeMillis() - oldest) / 1000.0;
    }

    @Override
    public void close() {
        reader.close(Duration.ofSeconds(5));
    }
}
