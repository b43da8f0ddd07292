package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.config.LapseConfig;
import io.lapse.event.Decoded;
import io.lapse.event.OrderUpdate;
import io.lapse.event.StatusReader;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.ServiceLoop;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the push topic outside Kafka Streams and hands the mirror what matters per order once a round, not per push.
 *
 * <p>Every push would otherwise cost the mirror a record through Kafka Streams, a read and a write of its store and a
 * record in its changelog, while all an order's pushes of a round change is its newest status time: at 1 M orders
 * pushing every 15 s, that was most of Lapse's CPU. A plain consumer reads the pushes by the rules ingest reads them
 * with ({@link StatusReader}), keeps at most two updates per order ({@link PendingPushes}), and at the end of each
 * round (every compensator.scan-interval, on the wall clock, so that every instance hands over at the same moments)
 * writes them to the mirror's repartition topic, from which the task that owns each order folds them into its store.
 * The updates and the consumer's offsets go in one transaction: what is committed has reached the mirror, and what is
 * not is read again after a crash or a rebalance. A round ends once the pushes are read up to the end offsets the
 * topic had when it began, so that the committed offsets prove the mirror complete up to then ({@link CaughtUp});
 * a rebuild or a drift scan asks for such a hand-over at once ({@link #handOverUpToNow}), and a push that ended a
 * silence starts one within about a second ({@link #SILENCE_HAND_OVER_EVERY}). Each such hand-over ends with a word to
 * every partition of the mirror of how far it read ({@link MirrorInput.PushesRead}), so that the mirror can tell when
 * it holds every push before a moment ({@link PulledSilences}).
 */
public final class PushFolder implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PushFolder.class);
    private static final Duration POLL = Duration.ofMillis(500);
    /** A round whose pushes cannot be read up to its end offsets in this long hands over what it read. */
    private static final Duration LONGEST_ROUND_WAIT = Duration.ofSeconds(10);
    /*
     * A push that ended a silence is handed over without waiting for the round's end, at most this often: the silence
     * may be one the timer never fired (Redis lost its deadline), which the mirror publishes once it has waited its
     * grace, and every second of the round it waited for was a second more of that expiry's lateness (chaos runs with
     * rounds of 5 s fired such silences 31-37 s after their deadlines, 1-7 s beyond their bound).
     */
    private static final Duration SILENCE_HAND_OVER_EVERY = Duration.ofSeconds(1);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final ProducerFactory producers;
    private final StatusReader reader;
    private final MirrorPartition partition;
    private final String pushTopic;
    private final String repartitionTopic;
    private final OffsetTakeover takeover;
    private final BooleanSupplier mirrorExists;
    private final Duration round;
    private final Clock clock;
    private final Serializer<MirrorInput> values = MirrorInputSerde.serde().serializer();
    private final PendingPushes pending;
    private final AtomicLong requested = new AtomicLong(Long.MIN_VALUE);
    private final ServiceLoop loop;
    private KafkaProducer<byte[], byte[]> producer;
    private boolean subscribed;
    private long nextRound;
    private long answered = Long.MIN_VALUE;
    /** Whether a push read since the last hand-over ended a silence. */
    private boolean silenceRead;

    private long lastHandOverStarted = Long.MIN_VALUE;
    /** The end offsets the hand-over under way waits to read up to; null while none is under way. */
    private Map<TopicPartition, Long> target;

    private long targetSince;
    private Map<TopicPartition, OffsetAndMetadata> lastCommitted = Map.of();

    /** Makes the transactional producer, once more after one was fenced. */
    @FunctionalInterface
    interface ProducerFactory {
        KafkaProducer<byte[], byte[]> create();
    }

    private PushFolder(
            KafkaConsumer<byte[], byte[]> consumer,
            ProducerFactory producers,
            StatusReader reader,
            MirrorPartition partition,
            String pushTopic,
            String repartitionTopic,
            OffsetTakeover takeover,
            BooleanSupplier mirrorExists,
            Duration round,
            Duration ttl,
            Clock clock) {
        this.consumer = consumer;
        this.producers = producers;
        this.reader = reader;
        this.partition = partition;
        this.pushTopic = pushTopic;
        this.repartitionTopic = repartitionTopic;
        this.takeover = takeover;
        this.mirrorExists = mirrorExists;
        this.round = round;
        this.clock = clock;
        this.pending = new PendingPushes(ttl);
        this.loop = new ServiceLoop("lapse-compensator-pushes", this::turn, consumer::wakeup, this::closeClients);
    }

    /**
     * Assembles the consumer and the producer; {@link #start} runs them.
     *
     * @param mirrorPartitions the mirror's partition count ({@link MirrorPartitions})
     * @param mirrorExists     whether the compensator's streams created their repartition topic, which the hand-overs
     *                         go to: a producer writing it before would have the broker create it with its defaults
     */
    public static PushFolder build(
            LapseConfig config,
            KafkaClients clients,
            OffsetTakeover takeover,
            int mirrorPartitions,
            BooleanSupplier mirrorExists,
            Clock clock) {
        String applicationId = config.compensator().applicationId();
        String group = CompensatorTopology.pushGroup(applicationId);
        // read a few hundred KB at a time: the pushes count only once handed over, at the end of the round
        KafkaConsumer<byte[], byte[]> consumer = clients.member(
                group,
                "lapse-compensator-pushes",
                Map.of(
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        10_000,
                        ConsumerConfig.FETCH_MIN_BYTES_CONFIG,
                        StreamsSettings.FETCH_MIN_BYTES,
                        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
                        (int) POLL.toMillis(),
                        ConsumerConfig.METADATA_MAX_AGE_CONFIG,
                        KafkaClients.NEW_PARTITIONS_SEEN_WITHIN_MS,
                        ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                        CooperativeStickyAssignor.class.getName()));
        // one per instance, the same after a restart (the static member's id), so that a restarted instance aborts the
        // transaction its predecessor left open at once rather than after its timeout
        String transactionalId = group + "-"
                + consumer.groupMetadata()
                        .groupInstanceId()
                        .orElseGet(() -> UUID.randomUUID().toString());
        ProducerFactory producers = () -> clients.producer(
                "lapse-compensator-pushes",
                Map.of(
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                        transactionalId,
                        ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                        30_000,
                        ProducerConfig.LINGER_MS_CONFIG,
                        20,
                        ProducerConfig.BATCH_SIZE_CONFIG,
                        256 * 1024,
                        // as the streams' producer, for the same reason (StreamsSettings)
                        ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
                        1));
        return new PushFolder(
                consumer,
                producers,
                new StatusReader(config.timer()),
                new MirrorPartition(mirrorPartitions),
                config.topics().push(),
                CompensatorTopology.repartitionTopic(applicationId),
                takeover,
                mirrorExists,
                config.compensator().scanInterval(),
                config.timer().ttl(),
                clock);
    }

    public void start() {
        loop.start();
    }

    /**
     * Asks for every push on the topic now to reach the mirror soon: the folder reads up to the end offsets it finds
     * at its next turn and hands everything over. Any thread.
     */
    public void handOverUpToNow() {
        requested.accumulateAndGet(clock.millis(), Math::max);
    }

    /** Orders whose pushes wait for the end of the round. */
    public int pendingOrders() {
        return pending.size();
    }

    public Optional<String> livenessProblem() {
        return ServiceLoop.livenessProblemOf(loop);
    }

    public boolean isHealthy() {
        return loop.isHealthy();
    }

    private void turn() {
        if (!subscribed) {
            if (!mirrorExists.getAsBoolean()) {
                sleep(POLL);
                return;
            }
            takeover.run();
            consumer.subscribe(List.of(pushTopic), new Rebalance());
            subscribed = true;
            nextRound = nextRoundAfter(clock.millis());
        }
        if (producer == null) { // before the poll, whose rebalance may hand over
            producer = transactional();
        }
        long readAt = clock.millis();
        try {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                fold(record, readAt);
            }
        } catch (WakeupException closing) {
            return;
        }
        long now = clock.millis();
        if (target == null) {
            long asked = requested.get();
            boolean silenceDue = silenceRead && now - lastHandOverStarted >= SILENCE_HAND_OVER_EVERY.toMillis();
            if (now >= nextRound || asked > answered || silenceDue) {
                answered = asked;
                silenceRead = false;
                lastHandOverStarted = now;
                nextRound = nextRoundAfter(now);
                target = consumer.endOffsets(consumer.assignment());
                targetSince = now;
            }
        }
        if (target != null && (readUpTo(target) || now - targetSince >= LONGEST_ROUND_WAIT.toMillis())) {
            MirrorInput.PushesRead read = pushesRead(target, targetSince);
            target = null;
            handOver(read);
        }
    }

    /** The word that the partitions read up to their end offsets of {@code since} have been handed over. */
    private MirrorInput.PushesRead pushesRead(Map<TopicPartition, Long> ends, long since) {
        Set<Integer> read = new HashSet<>();
        for (TopicPartition assigned : consumer.assignment()) {
            Long end = ends.get(assigned);
            if (end != null && consumer.position(assigned) >= end) {
                read.add(assigned.partition());
            }
        }
        return new MirrorInput.PushesRead(
                since, consumer.partitionsFor(pushTopic).size(), read);
    }

    /** A producer of the folder's transactional id, ready for its first transaction; any it fenced is aborted. */
    private KafkaProducer<byte[], byte[]> transactional() {
        KafkaProducer<byte[], byte[]> created = producers.create();
        try {
            created.initTransactions();
            return created;
        } catch (RuntimeException e) {
            created.close(Duration.ZERO);
            throw e;
        }
    }

    /** The next end of a round: rounds end at whole multiples of the round's length, the same on every instance. */
    private long nextRoundAfter(long now) {
        long length = round.toMillis();
        return (now / length + 1) * length;
    }

    private void fold(ConsumerRecord<byte[], byte[]> record, long readAt) {
        Decoded<OrderUpdate> update =
                Decoded.of(() -> reader.push(record.key(), record.value(), record.timestamp(), readAt));
        if (update.isRejected()) {
            // ingest writes its one dead letter
            log.warn("skipped {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), update.rejection());
        } else if (update.value() != null && pending.add(update.value())) {
            silenceRead = true;
        }
    }

    private boolean readUpTo(Map<TopicPartition, Long> ends) {
        for (TopicPartition assigned : consumer.assignment()) {
            Long end = ends.get(assigned);
            if (end != null && consumer.position(assigned) < end) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes the pending updates to the repartition topic and commits the offsets they were read up to, in one
     * transaction, and the word of how far the pushes were read to every partition of the mirror, last: a task that
     * reads the word has folded what came before it. Nothing is written while nothing was read since the last
     * hand-over and there is no word to give (a round's end gives one even then, for the silences pulled statuses
     * ended: {@link PulledSilences}).
     *
     * @param read the word, or null when the hand-over has none (a rebalance's or a stop's)
     */
    private void handOver(MirrorInput.PushesRead read) {
        Map<TopicPartition, OffsetAndMetadata> offsets = positions(consumer.assignment());
        boolean word = read != null && !read.partitions().isEmpty();
        if (pending.size() == 0 && lastCommitted.equals(offsets) && !word) {
            return;
        }
        try {
            producer.beginTransaction();
            pending.drain(input -> send(partition.of(input.orderId()), input));
            if (word) {
                for (int mirrorPartition = 0; mirrorPartition < partition.count(); mirrorPartition++) {
                    send(mirrorPartition, read);
                }
            }
            producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
            producer.commitTransaction();
            lastCommitted = offsets;
        } catch (KafkaException e) {
            // fenced, thrown out of the group by a rebalance, a timeout: nothing of this round is known to have reached
            // the mirror, so it is read again; a new producer aborts whatever transaction this one left open
            log.warn("the pushes read since the last hand-over are read again: {}", e.toString());
            producer.close(Duration.ZERO);
            producer = null;
            readAgain();
            throw e;
        }
    }

    private void send(int mirrorPartition, MirrorInput input) {
        producer.send(new ProducerRecord<>(
                repartitionTopic,
                mirrorPartition,
                input.orderId().getBytes(StandardCharsets.UTF_8),
                values.serialize(repartitionTopic, input)));
    }

    private Map<TopicPartition, OffsetAndMetadata> positions(Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition assigned : partitions) {
            offsets.put(assigned, new OffsetAndMetadata(consumer.position(assigned)));
        }
        return offsets;
    }

    /** Drops what was read since the last commit and reads it again from the committed offsets. */
    private void readAgain() {
        pending.clear();
        lastCommitted = Map.of();
        Set<TopicPartition> assigned = consumer.assignment();
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(assigned);
        for (TopicPartition partition : assigned) {
            OffsetAndMetadata offset = committed.get(partition);
            if (offset == null) {
                consumer.seekToBeginning(List.of(partition));
            } else {
                consumer.seek(partition, offset);
            }
        }
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Partitions leaving in a rebalance hand over what was read of them first, so that their next owner reads only what
     * came after; partitions lost (this member was thrown out of the group) cannot commit, and are read again by their
     * next owner from where they were committed.
     */
    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (!partitions.isEmpty()) {
                target = null;
                handOver(null);
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            target = null;
            pending.clear();
            lastCommitted = Map.of();
        }
    }

    /** On the loop's thread, after its last turn: hands over what was read, so that a clean stop leaves nothing. */
    private void closeClients() {
        try {
            if (subscribed && producer != null) {
                handOver(null);
            }
        } catch (RuntimeException e) {
            log.warn("the pushes read last were not handed over; the next owner reads them again", e);
        } finally {
            consumer.close();
            if (producer != null) {
                producer.close();
            }
        }
    }

    @Override
    public void close() {
        loop.close();
    }
}
