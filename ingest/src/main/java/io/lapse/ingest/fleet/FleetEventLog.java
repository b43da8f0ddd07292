package io.lapse.ingest.fleet;

import io.lapse.event.CohortEvent;
import io.lapse.event.FleetEvent;
import io.lapse.event.JsonCodec;
import io.lapse.kafka.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * The fleet events topic as the record of which silence is on: the last SILENCE_STARTED or SILENCE_ENDED of the push
 * topic on its one partition says it, whatever Redis lost. Events are written in Kafka transactions under one
 * transactional id per deployment, so that the instance that takes over judging fences the one before it: a judge
 * that froze and resumes can no longer write a stale event, and one it had begun is aborted. Readers of the topic
 * use read_committed, as this one does.
 */
final class FleetEventLog {

    /** One partition, whatever the topic has, so that a silence's end is never read before its start. */
    static final int PARTITION = 0;

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(10);
    /** Read back from the end this many records at a time until the silence's last event is found. */
    private static final int READ_BACK = 500;

    private final KafkaClients clients;
    private final String eventsTopic;
    private final String pushTopic;
    private final String transactionalId;

    /** @param transactionalId the same for every ingest instance of the deployment, and for no other */
    FleetEventLog(KafkaClients clients, String eventsTopic, String pushTopic, String transactionalId) {
        this.clients = clients;
        this.eventsTopic = eventsTopic;
        this.pushTopic = pushTopic;
        this.transactionalId = transactionalId;
    }

    /**
     * A producer that writes events under the deployment's transactional id; opening it fences every producer opened
     * before (their transactions fail from then on, and one left open is aborted).
     */
    KafkaProducer<byte[], byte[]> openWriter() {
        KafkaProducer<byte[], byte[]> producer = clients.producer(
                "lapse-fleet-judge",
                Map.of(
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                        transactionalId,
                        // a broker that does not answer fails a check within its timeouts, not after a minute
                        ProducerConfig.MAX_BLOCK_MS_CONFIG,
                        (int) WRITE_TIMEOUT.toMillis()));
        try {
            producer.initTransactions();
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
        return producer;
    }

    ProducerRecord<byte[], byte[]> record(FleetEvent event) {
        return record(JsonCodec.FLEET_EVENT.encode(event));
    }

    /** A cohort's event goes on the same partition, under the same key: its end is never read before its start. */
    ProducerRecord<byte[], byte[]> record(CohortEvent event) {
        return record(JsonCodec.COHORT_EVENT.encode(event));
    }

    private ProducerRecord<byte[], byte[]> record(byte[] value) {
        return new ProducerRecord<>(eventsTopic, PARTITION, pushTopic.getBytes(StandardCharsets.UTF_8), value);
    }

    /**
     * The cohort silences on, as the topic's committed events say: each cohort of the push topic whose last event is
     * a COHORT_SILENCE_STARTED, by cohort. Read from the beginning of the topic: it holds a few events per silence.
     */
    Map<String, CohortEvent> cohortSilencesOn() {
        TopicPartition partition = new TopicPartition(eventsTopic, PARTITION);
        Map<String, CohortEvent> on = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = clients.consumer(
                null, "lapse-fleet-judge-reader", Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))) {
            consumer.assign(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), READ_TIMEOUT).get(partition);
            consumer.seekToBeginning(List.of(partition));
            long giveUp = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (consumer.position(partition, READ_TIMEOUT) < end) {
                if (System.nanoTime() > giveUp) {
                    throw new TimeoutException("the fleet events topic was not read up to " + end + " within "
                            + READ_TIMEOUT.toSeconds() + " s");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() < end) {
                        cohortEvent(record).ifPresent(event -> {
                            if (event.event() == CohortEvent.Kind.COHORT_SILENCE_STARTED) {
                                on.put(event.cohort(), event);
                            } else {
                                on.remove(event.cohort());
                            }
                        });
                    }
                }
            }
        }
        return on;
    }

    private Optional<CohortEvent> cohortEvent(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return Optional.empty();
        }
        try {
            CohortEvent event = JsonCodec.COHORT_EVENT.decode(record.value());
            return pushTopic.equals(event.topic()) ? Optional.of(event) : Optional.empty();
        } catch (RuntimeException e) {
            // a fleet silence's event, or a record no Lapse wrote
            return Optional.empty();
        }
    }

    /**
     * The silence on, as the topic's committed events say: the push topic's last SILENCE_STARTED when no
     * SILENCE_ENDED followed it; empty otherwise. Events of other kinds, of other push topics and records that are
     * no event are passed over.
     */
    Optional<FleetEvent> silenceOn() {
        TopicPartition partition = new TopicPartition(eventsTopic, PARTITION);
        try (KafkaConsumer<byte[], byte[]> consumer = clients.consumer(
                null,
                "lapse-fleet-judge-reader",
                Map.of(
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        READ_BACK))) {
            consumer.assign(List.of(partition));
            long start =
                    consumer.beginningOffsets(List.of(partition), READ_TIMEOUT).get(partition);
            long end = consumer.endOffsets(List.of(partition), READ_TIMEOUT).get(partition);
            for (long to = end; to > start; to = Math.max(start, to - READ_BACK)) {
                long from = Math.max(start, to - READ_BACK);
                Optional<FleetEvent> last = Optional.empty();
                boolean found = false;
                consumer.seek(partition, from);
                long giveUp = System.nanoTime() + READ_TIMEOUT.toNanos();
                while (consumer.position(partition, READ_TIMEOUT) < to) {
                    if (System.nanoTime() > giveUp) {
                        throw new TimeoutException("the fleet events topic was not read up to " + to + " within "
                                + READ_TIMEOUT.toSeconds() + " s");
                    }
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                        if (record.offset() >= to) {
                            break;
                        }
                        Optional<FleetEvent> event = silenceEvent(record);
                        if (event.isPresent()) {
                            found = true;
                            last = event.get().event() == FleetEvent.Kind.SILENCE_STARTED ? event : Optional.empty();
                        }
                    }
                }
                if (found) {
                    return last;
                }
            }
            return Optional.empty();
        }
    }

    private Optional<FleetEvent> silenceEvent(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return Optional.empty();
        }
        try {
            FleetEvent event = JsonCodec.FLEET_EVENT.decode(record.value());
            return pushTopic.equals(event.topic()) ? Optional.of(event) : Optional.empty();
        } catch (RuntimeException e) {
            // another kind of event (a cohort's), or a record no Lapse wrote
            return Optional.empty();
        }
    }
}
