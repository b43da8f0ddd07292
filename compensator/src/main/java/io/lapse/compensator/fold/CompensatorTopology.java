package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.OrderState;
import io.lapse.compensator.mirror.OrderStateSerde;
import io.lapse.config.CompensatorSettings;
import io.lapse.config.TimerSettings;
import io.lapse.config.TopicNames;
import io.lapse.event.StatusReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.Stores;

/**
 * The compensator's Kafka Streams topology: pull results and published expiries, keyed by orderId, and the pushes the
 * {@link PushFolder} hands over once a round, fold into a durable mirror of what Redis should hold for every order.
 * An order's state lives in one partition of the mirror, chosen by its orderId ({@link MirrorPartition}); a pull result
 * or expiry read from that partition of its topic folds in at once, any other goes through the repartition topic to the
 * task that owns its partition (producers key and partition as they like, and the topics may differ in partition
 * count), as do the pushes' hand-overs. Records that break the contract are skipped (their dead letter is ingest's or
 * the puller's).
 */
public final class CompensatorTopology {

    /** orderId → {@link OrderState}. */
    public static final String STORE = CompensatorSettings.MIRROR_STORE;

    /** orderId → the silences of the order that may never have fired ({@link UnfiredSilences}); usually empty. */
    static final String UNFIRED_SILENCES = "lapse-unfired-silences";

    /** orderId → the silences a pulled status ended that may never have fired ({@link PulledSilences}). */
    static final String PULLED_SILENCES = "lapse-pulled-silences";

    /** Part of the internal topic's name, {@code <application.id>-lapse-order-updates-repartition}. */
    static final String REPARTITION = CompensatorSettings.MIRROR_REPARTITION;

    /**
     * The store's changelog keeps about one record per order when its segments roll often enough to be compacted:
     * a rebuild reads all of it.
     */
    private static final Map<String, String> CHANGELOG =
            Map.of("segment.ms", "600000", "min.cleanable.dirty.ratio", "0.1");

    private CompensatorTopology() {}

    /** The topics the mirror is folded from. */
    public static List<String> inputs(TopicNames topics) {
        return List.of(topics.push(), topics.pulled(), topics.expired());
    }

    /** The input topics the streams read themselves; the push folder reads the pushes. */
    public static List<String> sources(TopicNames topics) {
        return List.of(topics.pulled(), topics.expired());
    }

    /** The consumer group the compensator's push folder reads the push topic in ({@link PushFolder}). */
    public static String pushGroup(String applicationId) {
        return applicationId + "-pushes";
    }

    /** The internal topic Kafka Streams keeps the store in: what a rebuild reads. */
    public static String changelog(String applicationId) {
        return CompensatorSettings.changelogOf(applicationId);
    }

    /**
     * The changelogs of every store the topology keeps, the mirror's first: all live in the one subtopology, so each
     * has a partition per task.
     */
    public static List<String> changelogs(String applicationId) {
        return List.of(
                changelog(applicationId),
                applicationId + "-" + UNFIRED_SILENCES + "-changelog",
                applicationId + "-" + PULLED_SILENCES + "-changelog");
    }

    /**
     * The internal topic the inputs read from another partition than their order's, and the pushes' hand-overs, go
     * through, keyed by orderId, on their way to the store; its partition count is the mirror's.
     */
    public static String repartitionTopic(String applicationId) {
        return CompensatorSettings.repartitionTopicOf(applicationId);
    }

    /**
     * Builds the topology; does no I/O.
     *
     * @param partitions the partitions of the mirror, which is the repartition topic's count: see {@link
     *     MirrorPartitions}
     */
    public static Topology build(TopicNames topics, TimerSettings timer, Duration pruneInterval, int partitions) {
        StatusReader reader = new StatusReader(timer);
        MirrorPartition partition = new MirrorPartition(partitions);
        StreamsBuilder builder = new StreamsBuilder();
        // no record cache: an order's pushes are seconds apart, so a commit's cache had next to nothing to fold, while
        // with more orders than it holds every get missed it, copied the order in and evicted another, each a walk
        // of its TreeMap comparing byte arrays: half the stream thread's CPU, and the GC's pauses, in the 250 k soak
        builder.addStateStore(Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(STORE), Serdes.String(), OrderStateSerde.serde())
                .withCachingDisabled()
                .withLoggingEnabled(CHANGELOG));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(UNFIRED_SILENCES), Serdes.String(), UnfiredSilences.serde())
                .withCachingDisabled()
                .withLoggingEnabled(Map.of()));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(PULLED_SILENCES), Serdes.String(), PulledSilences.serde())
                .withCachingDisabled()
                .withLoggingEnabled(Map.of()));
        KStream<String, MirrorInput> pulls =
                fold(builder, topics.pulled(), "pulled", RecordDecoder.pulls(reader), partition, timer);
        KStream<String, MirrorInput> expiries =
                fold(builder, topics.expired(), "expired", RecordDecoder.expiries(), partition, timer);
        // what each input's fold forwards lives in another partition: the repartition topic's source joins this
        // subtopology through the store, so the tasks that write the topic also read it, partition p by task p, and
        // every order's inputs (the push folder's hand-overs among them) meet in one task and one store
        pulls.merge(expiries, Named.as("merge-expiries"))
                .repartition(Repartitioned.with(Serdes.String(), MirrorInputSerde.serde())
                        .withName(REPARTITION)
                        .withNumberOfPartitions(partitions)
                        .withStreamPartitioner(partition))
                .process(
                        () -> new OrderTracker(pruneInterval, timer),
                        Named.as("track-orders"),
                        STORE,
                        UNFIRED_SILENCES,
                        PULLED_SILENCES)
                // the expiries of silences that ended unfired, keyed as the timer keys its own
                .to(
                        topics.expired(),
                        Produced.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("unfired-silences"));
        return builder.build();
    }

    /** An input topic read as bytes, each record folded in at once, or forwarded when its order lives elsewhere. */
    private static KStream<String, MirrorInput> fold(
            StreamsBuilder builder,
            String topic,
            String name,
            RecordDecoder decoder,
            MirrorPartition partition,
            TimerSettings timer) {
        return builder.stream(
                        topic,
                        Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(name + "-source"))
                .process(
                        () -> new FoldInput(topic, decoder, partition, timer),
                        Named.as("fold-" + name),
                        STORE,
                        UNFIRED_SILENCES,
                        PULLED_SILENCES);
    }
}
