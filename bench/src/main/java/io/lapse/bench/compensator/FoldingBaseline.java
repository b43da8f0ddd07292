package io.lapse.bench.compensator;

import io.lapse.bench.harness.RunSandbox;
import io.lapse.compensator.fold.StreamsSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The yardstick of the compensator's throughput: a plain Kafka Streams application that reads the push topic as
 * bytes and keeps each order's latest push in a persistent, cached and logged store keyed by orderId (the pushes'
 * key), under the compensator's processing guarantee, commit interval and thread count. It decodes nothing and
 * repartitions nothing, so it is what Kafka Streams costs on this machine before any of Lapse's work.
 */
final class FoldingBaseline implements AutoCloseable {

    static final String STORE = "latest-push";
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaStreams streams;

    private FoldingBaseline(KafkaStreams streams) {
        this.streams = streams;
    }

    /** Starts the application on the run's push topic under its own application id and state directory. */
    static FoldingBaseline start(RunSandbox sandbox, String applicationId, Path stateDir) {
        KafkaStreams streams =
                new KafkaStreams(topology(sandbox.config.topics().push()), settings(sandbox, applicationId, stateDir));
        streams.start();
        return new FoldingBaseline(streams);
    }

    static Topology topology(String pushTopic) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.addStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.Bytes(), Serdes.ByteArray())
                        .withCachingEnabled());
        builder.stream(pushTopic, Consumed.with(Serdes.Bytes(), Serdes.ByteArray()))
                .process(KeepLatest::new, STORE);
        return builder.build();
    }

    private static Properties settings(RunSandbox sandbox, String applicationId, Path stateDir) {
        Properties props = new Properties();
        props.putAll(sandbox.config.kafka().clientProperties());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        // as the compensator's: the ratio compares like with like
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, StreamsSettings.THREADS);
        props.put(
                StreamsConfig.REPLICATION_FACTOR_CONFIG, sandbox.config.kafka().replicationFactor());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, StreamsSettings.COMMIT_INTERVAL.toMillis());
        props.put(
                StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MIN_BYTES_CONFIG),
                StreamsSettings.FETCH_MIN_BYTES);
        props.put(
                StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG),
                StreamsSettings.FETCH_MAX_WAIT_MS);
        // as the compensator, which sets it to keep its behaviour across the upgrade to Kafka 5.0; it spares the log
        // a warning here, and this application throws nothing
        props.put("processing.exception.handler.global.enabled", true);
        return props;
    }

    @Override
    public void close() {
        streams.close(CLOSE_TIMEOUT);
    }

    private static final class KeepLatest implements Processor<Bytes, byte[], Void, Void> {

        private KeyValueStore<Bytes, byte[]> latest;

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            latest = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<Bytes, byte[]> record) {
            latest.put(record.key(), record.value());
        }
    }
}
