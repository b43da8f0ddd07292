package io.lapse.faults.workload;

import io.lapse.kafka.KeyPartitions;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.common.Cluster;

/**
 * Partitions as librdkafka's default partitioner ({@code consistent_random}) does: the CRC-32 of the key modulo the
 * partition count, a random partition for a null or empty key. Upstream platforms written in C, Go, Python or .NET
 * produce through librdkafka, so their keys land where this puts them, not where the Java client's murmur2 would.
 */
public final class LibrdkafkaPartitioner implements Partitioner {

    @Override
    public int partition(String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster cluster) {
        return partition(keyBytes, cluster.partitionCountForTopic(topic));
    }

    public static int partition(byte[] keyBytes, int partitions) {
        if (keyBytes == null || keyBytes.length == 0) {
            return ThreadLocalRandom.current().nextInt(partitions);
        }
        return KeyPartitions.librdkafka(keyBytes, partitions);
    }

    @Override
    public void configure(Map<String, ?> configs) {}

    @Override
    public void close() {}
}
