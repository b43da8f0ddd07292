package io.lapse.compensator;

import io.lapse.config.TimerSettings;
import io.lapse.config.TopicNames;
import io.lapse.store.OrderUpdate;
import io.lapse.store.StatusReader;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.Stores;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The compensator's Kafka Streams topology: pushes and pull results, re-keyed by orderId and repartitioned (producers
 * key and partition as they like, and the two topics may differ in partition count), fold into a durable store of
 * every order, which a wall-clock scan compares with Redis.
 */
public final class CompensatorTopology {

    /** orderId → {@link OrderState}. */
    public static final String STORE = "lapse-orders";

    /** Part of the internal topic's name, {@code <application.id>-lapse-order-updates-repartition}. */
    static final String REPARTITION = "lapse-order-updates";

    private CompensatorTopology() {
    }

    /** Builds the topology; does no I/O. Each task gets its own repair from {@code repair}. */
    public static Topology build(TopicNames topics, TimerSettings timer, Duration scanInterval,
                                 Supplier<TimerRepair> repair) {
        StatusReader reader = new StatusReader(timer);
        StreamsBuilder builder = new StreamsBuilder();
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE),
                Serdes.String(), OrderState.serde()));
        KStream<String, OrderUpdate> pushes = source(builder, topics.push(), "push", reader::push);
        KStream<String, OrderUpdate> pulls = source(builder, topics.pulled(), "pulled", reader::pull);
        pushes.merge(pulls, Named.as("merge-updates"))
                .repartition(Repartitioned.with(Serdes.String(), OrderUpdateSerde.serde()).withName(REPARTITION))
                .process(() -> new OrderTracker(scanInterval, timer.tombstoneRetention(), repair.get()),
                        Named.as("track-orders"), STORE);
        return builder.build();
    }

    private static KStream<String, OrderUpdate> source(StreamsBuilder builder, String topic, String name,
                                                       StatusReader.Read read) {
        return builder.stream(topic, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(name + "-source"))
                .process(() -> new DecodeStatus(topic, read), Named.as("decode-" + name));
    }
}
