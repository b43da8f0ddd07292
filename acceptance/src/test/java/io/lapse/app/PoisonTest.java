package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.devstack.Poison;
import io.lapse.devstack.TopicRecorder;
import io.lapse.event.DeadLetter;
import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.KafkaClients;
import io.lapse.runtime.LapseRuntime;
import io.lapse.simulator.Fleet;
import io.lapse.store.timers.OrderView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every kind of poison on the push, pulled and expired topics, in the middle of a live pipeline: each bad record
 * becomes exactly one dead letter, every consumer carries on behind it, and silent orders are still pulled.
 */
@Tag("slow")
class PoisonTest {

    private static final long TTL = 3_000;

    private static LapseUnderTest everything;
    private static LapseRuntime lapse;
    private static LapseConfig config;

    /** Where a record was written; a dead letter names its source the same way. */
    private record Source(String topic, int partition, long offset) {}

    @BeforeAll
    static void startEverything() throws Exception {
        everything = LapseUnderTest.start(TTL);
        lapse = everything.lapse;
        config = everything.config;
    }

    @AfterAll
    static void stopEverything() {
        everything.close();
    }

    @Test
    void eachBadRecordIsOneDeadLetterAndStopsNothing() throws Exception {
        Fleet fleet = everything.simulator.fleet();
        List<String> orders = fleet.startMany(50, "poison-test-");
        await().atMost(Duration.ofSeconds(60))
                .until(() ->
                        lapse.store().inspect(orders).join().values().stream().allMatch(OrderView::isWatched));
        await().atMost(Duration.ofSeconds(60)).until(lapse.health()::isReady);

        try (TopicRecorder expired = TopicRecorder.start(
                        config.kafka().bootstrapServers(), config.topics().expired());
                TopicRecorder pulled = TopicRecorder.start(
                        config.kafka().bootstrapServers(), config.topics().pulled());
                TopicRecorder dlq = TopicRecorder.start(
                        config.kafka().bootstrapServers(), config.topics().dlq())) {
            Set<Source> poisoned = sendEveryPoison();
            List<String> silent = orders.subList(0, 10);
            silent.forEach(fleet::silence);

            await().atMost(Duration.ofMillis(TTL + 20_000))
                    .until(() -> okPulls(pulled).containsAll(silent));
            await().atMost(Duration.ofSeconds(30)).until(() -> dlq.records().size() >= poisoned.size());
            // a batch retried because of one record would write its dead letter again
            await().during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(15))
                    .until(() -> dlq.records().size() == poisoned.size());

            List<DeadLetter> letters = dlq.values(JsonCodec.DEAD_LETTER::decode);
            assertThat(letters.stream().map(l -> new Source(l.sourceTopic(), l.partition(), l.offset())))
                    .as("exactly one dead letter per bad record")
                    .containsExactlyInAnyOrderElementsOf(poisoned);
            assertThat(letters)
                    .as("the value of a huge record is cut, and the letter says so")
                    .filteredOn(l -> l.valueSize() != null)
                    .hasSize(3)
                    .allSatisfy(l -> {
                        assertThat(l.truncated()).isTrue();
                        assertThat(l.originalValue()).hasSize(DeadLetter.MAX_VALUE_BYTES);
                    });
            assertThat(expiredOrders(expired)).as("only silent orders expire").isSubsetOf(silent);
            assertThat(lapse.health().isReady()).as("every consumer is alive").isTrue();
        }
    }

    /** @return where each bad record landed */
    private static Set<Source> sendEveryPoison() throws Exception {
        List<RecordMetadata> sent = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaClients(config.kafka()).producer("poison", Map.of())) {
            for (String topic : List.of(
                    config.topics().push(),
                    config.topics().pulled(),
                    config.topics().expired())) {
                for (Poison poison : Poison.values()) {
                    String orderId = "poison-" + poison.name().toLowerCase();
                    sent.add(producer.send(new ProducerRecord<>(topic, poison.key(orderId), poison.value(orderId)))
                            .get());
                }
            }
        }
        return sent.stream()
                .map(m -> new Source(m.topic(), m.partition(), m.offset()))
                .collect(Collectors.toSet());
    }

    private static Set<String> expiredOrders(TopicRecorder expired) {
        return decodable(expired, JsonCodec.TIMER_EXPIRED).stream()
                .map(TimerExpired::orderId)
                .collect(Collectors.toSet());
    }

    private static Set<String> okPulls(TopicRecorder pulled) {
        return decodable(pulled, JsonCodec.PULL_RESULT).stream()
                .filter(p -> p.outcome() == PullResult.Outcome.OK)
                .map(PullResult::orderId)
                .collect(Collectors.toSet());
    }

    /** The values of the topic that are events of the type; the poison among them is not. */
    private static <T> List<T> decodable(TopicRecorder recorder, JsonCodec<T> codec) {
        List<T> values = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : recorder.records()) {
            try {
                values.add(codec.decode(record.value()));
            } catch (InvalidRecordException e) {
                // a poison record
            }
        }
        return values.stream().filter(Objects::nonNull).toList();
    }
}
