package io.lapse.timer;

import io.lapse.event.OrderUpdate;
import io.lapse.event.StatusReader;
import io.lapse.store.TimerKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Proves, for {@link IngestStandIn}, what ingest's watermark would: it reads the records of the push and pulled topics
 * that ingest has not committed, and every order none of them names may fire up to the moment it asked the broker how
 * far the topics reach. Ingest commits a partition only once Redis applied what it read, so below its committed
 * offsets everything is applied; above them up to the end offsets, the timer has seen every record, and leaves their
 * orders to ingest ({@link Proof#unread}). A producer's record still on its way is the watermark's slack, as for
 * ingest's own proof, and so is a record that arrives later than that: the proof is held back as far as records here
 * arrived behind their partition's newest.
 *
 * <p>One reading episode lasts while ingest's committed offsets stay where they were: each proof reads only what was
 * appended since the last. A partition ingest never committed is read from its beginning, as ingest would read it. A
 * proof is given up, not guessed, when more than {@link #MOST_UNREAD} records wait (an ingest that far behind is
 * better waited for than read twice; the watermark alone decides then). Used by the timer's loop thread only.
 */
final class UnreadRecords implements IngestStandIn.Reading {

    /** A proof: nothing of any order but {@code unread} waits unread, as far as {@code firesUpTo}. */
    record Proof(long firesUpTo, Map<Integer, Set<String>> unread, long recordsRead) {

        Proof {
            unread = Map.copyOf(unread);
            if (recordsRead < 0) {
                throw new IllegalArgumentException("records read cannot be negative: " + recordsRead);
            }
        }

        /** The orders of a shard with records ingest has not applied. */
        Set<String> unreadIn(int shard) {
            return unread.getOrDefault(shard, Set.of());
        }
    }

    private static final Logger log = LoggerFactory.getLogger(UnreadRecords.class);

    /** Records a proof reads at most in one episode: at 67,000 pushes a second, a third of a second of them. */
    static final long MOST_UNREAD = 20_000;

    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration POLL = Duration.ofMillis(50);

    private final Admin admin;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String ingestGroup;
    private final String pushTopic;
    private final List<String> topics;
    private final StatusReader reader;
    private final TimerKeys keys;
    private final long slackMillis;
    private final long mostHeldBackMillis;

    private Map<TopicPartition, Long> readFrom = Map.of();
    private final Map<Integer, Set<String>> unread = new HashMap<>();
    private final Map<TopicPartition, Long> newest = new HashMap<>();
    private long recordsRead;
    private long heldBackMillis;

    /**
     * @param consumer a consumer of no group, which this reader assigns and closes
     * @param admin    asked for ingest's committed offsets; closed with the reader
     * @param slack    how long a producer may hold a record back (timer.watermark-slack)
     * @param ttl      the most the proof is held back for records that arrived later than the slack (timer.ttl)
     */
    UnreadRecords(
            Admin admin,
            KafkaConsumer<byte[], byte[]> consumer,
            String ingestGroup,
            String pushTopic,
            String pulledTopic,
            StatusReader reader,
            TimerKeys keys,
            Duration slack,
            Duration ttl) {
        this.admin = admin;
        this.consumer = consumer;
        this.ingestGroup = ingestGroup;
        this.pushTopic = pushTopic;
        this.topics = List.of(pushTopic, pulledTopic).stream().distinct().toList();
        this.reader = reader;
        this.keys = keys;
        this.slackMillis = slack.toMillis();
        this.mostHeldBackMillis = ttl.toMillis();
    }

    /**
     * @param now taken before the broker is asked anything: what the proof vouches for is as of then
     * @return the proof; empty when there is none to give now (the reason is logged at debug)
     */
    @Override
    public Optional<Proof> prove(long now) throws Exception {
        List<TopicPartition> partitions = partitions();
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(ingestGroup)
                .partitionsToOffsetAndMetadata()
                .get(ASK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        Map<TopicPartition, Long> from = new HashMap<>();
        List<TopicPartition> neverCommitted = new ArrayList<>();
        for (TopicPartition partition : partitions) {
            OffsetAndMetadata offset = committed.get(partition);
            if (offset == null) {
                neverCommitted.add(partition);
            } else {
                from.put(partition, offset.offset());
            }
        }
        // ingest reads such a partition from its beginning (auto.offset.reset=earliest), and so does this reader
        if (!neverCommitted.isEmpty()) {
            from.putAll(consumer.beginningOffsets(neverCommitted, ASK_TIMEOUT));
        }
        if (!from.equals(readFrom)) {
            begin(from);
        }
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, ASK_TIMEOUT);
        long waiting = 0;
        for (TopicPartition partition : partitions) {
            waiting += Math.max(0, ends.get(partition) - consumer.position(partition, ASK_TIMEOUT));
        }
        if (recordsRead + waiting > MOST_UNREAD) {
            log.debug("no proof: {} records wait unread, more than {}", recordsRead + waiting, MOST_UNREAD);
            return Optional.empty();
        }
        if (!readUpTo(ends, now)) {
            return Optional.empty();
        }
        Map<Integer, Set<String>> copy = new HashMap<>();
        unread.forEach((shard, orders) -> copy.put(shard, Set.copyOf(orders)));
        return Optional.of(new Proof(now - slackMillis - heldBackMillis, copy, recordsRead));
    }

    /**
     * Every partition of the topics, as the broker lists them now (not the consumer's cached metadata, minutes old):
     * one added since holds records that ingest may not have read at all.
     */
    private List<TopicPartition> partitions() throws Exception {
        List<TopicPartition> partitions = new ArrayList<>();
        for (TopicDescription topic : admin.describeTopics(topics)
                .allTopicNames()
                .get(ASK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .values()) {
            for (TopicPartitionInfo info : topic.partitions()) {
                partitions.add(new TopicPartition(topic.name(), info.partition()));
            }
        }
        return partitions;
    }

    /** A new episode: ingest's committed offsets moved (or this is the first), and reading starts from them again. */
    private void begin(Map<TopicPartition, Long> from) {
        consumer.assign(from.keySet());
        from.forEach(consumer::seek);
        readFrom = Map.copyOf(from);
        unread.clear();
        newest.clear();
        recordsRead = 0;
        heldBackMillis = 0;
    }

    /** @return whether every partition was read up to its end offset in time */
    private boolean readUpTo(Map<TopicPartition, Long> ends, long now) {
        long giveUpAt = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (!reached(ends)) {
            if (System.nanoTime() > giveUpAt) {
                log.debug("no proof: the unread records were not read within {}", READ_TIMEOUT);
                return false;
            }
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                note(record, now);
            }
        }
        return true;
    }

    private boolean reached(Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            if (consumer.position(end.getKey(), ASK_TIMEOUT) < end.getValue()) {
                return false;
            }
        }
        return true;
    }

    /**
     * An order a record names waits for ingest, whatever the record says: ingest may re-arm, end or forget it. A
     * record ingest would reject (its dead letter is ingest's to write) changes nothing, and one that changes nothing
     * (a failed or skipped pull) neither.
     */
    private void note(ConsumerRecord<byte[], byte[]> record, long now) {
        recordsRead++;
        OrderUpdate update;
        try {
            update = record.topic().equals(pushTopic)
                    ? reader.push(record.key(), record.value(), record.timestamp(), now)
                    : reader.pull(record.key(), record.value(), record.timestamp(), now);
        } catch (RuntimeException rejected) {
            return;
        }
        if (update == null) {
            return;
        }
        unread.computeIfAbsent(keys.shardOf(update.orderId()), shard -> new HashSet<>())
                .add(update.orderId());
        if (record.timestamp() >= 0) {
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            Long before = newest.get(partition);
            if (before == null || record.timestamp() > before) {
                newest.put(partition, record.timestamp());
            } else if (before - record.timestamp() - slackMillis > heldBackMillis) {
                heldBackMillis = Math.min(before - record.timestamp() - slackMillis, mostHeldBackMillis);
            }
        }
    }

    @Override
    public void close() {
        try {
            consumer.close(Duration.ofSeconds(1));
        } finally {
            admin.close(Duration.ofSeconds(1));
        }
    }
}
