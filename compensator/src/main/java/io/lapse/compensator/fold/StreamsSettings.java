package io.lapse.compensator.fold;

import io.lapse.config.LapseConfig;
import io.lapse.kafka.InstanceSlot;
import io.lapse.kafka.KafkaClients;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;

/**
 * The compensator's Kafka Streams configuration, and why each setting is what it is. Its thread count and commit
 * interval are public for the benchmark's plain Kafka Streams baseline, which must run like the compensator.
 */
public final class StreamsSettings {

    public static final int THREADS = 1;
    public static final Duration COMMIT_INTERVAL = Duration.ofSeconds(1);
    public static final int FETCH_MIN_BYTES = 256 * 1024;
    public static final int FETCH_MAX_WAIT_MS = 200;

    private StreamsSettings() {}

    /** @param slot this process's static membership of the application's group */
    public static Properties of(LapseConfig config, Path stateDir, InstanceSlot slot) {
        Properties props = new Properties();
        props.putAll(config.kafka().clientProperties());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.compensator().applicationId());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, THREADS);
        // a static member (Streams suffixes the id with the thread's index): after a kill -9 the restarted process
        // takes its tasks back as it joins, instead of the mirror standing still until the dead member's session ends
        KafkaClients.staticMember(slot)
                .forEach((key, value) -> props.put(StreamsConfig.mainConsumerPrefix(key), value));
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, config.kafka().replicationFactor());
        // the mirror must never count a record twice or lose one: a rebuild writes it into Redis as it stands
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(
                StreamsConfig.mainConsumerPrefix(ConsumerConfig.METADATA_MAX_AGE_CONFIG),
                KafkaClients.NEW_PARTITIONS_SEEN_WITHIN_MS);
        // a transaction per commit, each committing offsets and writing a marker to every partition it wrote: one a
        // second rather than five spares the broker and the client, and a rebuild waits at most a second longer for
        // what was read before the loss to be committed (CaughtUp), well inside its 10 s round
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, COMMIT_INTERVAL.toMillis());
        // a fetch waits for 256 KB or 200 ms rather than answering with whatever arrived since the last: a live fleet
        // otherwise hands the stream thread a few records per fetch, each fetch a round of the thread, the client and
        // the broker; what the mirror holds only counts once committed, every second
        props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MIN_BYTES_CONFIG), FETCH_MIN_BYTES);
        props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), FETCH_MAX_WAIT_MS);
        // a task reads a partition of each of the three input topics and of the repartition topic; waiting for them
        // all to merge by timestamp (the default, 0) buys nothing, since the repartition interleaves the tasks' output
        // anyway and the mirror's rules take inputs in any order (OrderState), and it costs: Kafka Streams 4.3 formats
        // a log line per empty partition (String.format, whatever the log level) for every record it processes, a
        // third of the stream thread's CPU on a backlog of pushes while pulled and expired stay empty
        props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        // the default from Kafka 5.0 on; setting it now keeps behaviour the same across the upgrade
        props.put("processing.exception.handler.global.enabled", true);
        // the inputs are read as bytes and a record that breaks the contract is skipped by the topology; only an
        // internal topic could hold a record
        // that does not read, and one such must not stop the mirror for good (a thread would die on it again and again)
        props.put(
                StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                LogAndContinueExceptionHandler.class.getName());
        // one request in flight: with transactions v2 the broker rejects a transaction's second batch to a partition
        // while its first is being retried (CONCURRENT_TRANSACTIONS), the transaction aborts and the mirror stalls
        // for seconds (seen here under load; KAFKA-15591)
        props.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION), 1);
        return props;
    }
}
