package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.Blocking;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The upgrade from a compensator whose Kafka Streams read the push topic itself: the first time the push folder's
 * group has no offsets on the push topic, it starts where the streams' group had read it, so that no push is folded
 * twice or skipped, and the streams' group forgets its offsets there, which nothing moves any more (they would read as
 * a lag that grows for ever). Every instance of the older version must have stopped: a group with members cannot have
 * its offsets changed.
 */
public final class OffsetTakeover {

    private static final Logger log = LoggerFactory.getLogger(OffsetTakeover.class);

    private final Admin admin;
    private final String from;
    private final String to;
    private final String topic;

    /**
     * @param from  the group whose offsets on the topic are taken over: the compensator's streams
     * @param to    the group that takes them: the push folder's
     */
    public OffsetTakeover(Admin admin, String from, String to, String topic) {
        this.admin = admin;
        this.from = from;
        this.to = to;
        this.topic = topic;
    }

    /** Takes the offsets over unless the push folder's group has some already; before its consumer joins. */
    void run() {
        if (!onTopic(committed(to)).isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> older = onTopic(committed(from));
        if (older.isEmpty()) {
            return; // a new installation: the folder reads the topic from its beginning
        }
        Blocking.await(admin.alterConsumerGroupOffsets(to, older).all(), "give " + to + " the offsets of " + from);
        try {
            Blocking.await(
                    admin.deleteConsumerGroupOffsets(from, older.keySet()).all(),
                    "remove " + from + "'s offsets on " + topic);
        } catch (IllegalStateException e) {
            log.warn("{} keeps its offsets on {}, which nothing moves any more: {}", from, topic, e.getMessage());
        }
        log.info(
                "the compensator now reads {} outside its streams, in group {}: it goes on where {} had read it ({})",
                topic,
                to,
                from,
                older);
    }

    private Map<TopicPartition, OffsetAndMetadata> committed(String group) {
        return Blocking.await(
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(),
                "read the offsets of consumer group " + group);
    }

    private Map<TopicPartition, OffsetAndMetadata> onTopic(Map<TopicPartition, OffsetAndMetadata> offsets) {
        return offsets.entrySet().stream()
                .filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
