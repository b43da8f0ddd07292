package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStack;
import io.lapse.devstack.TopicRecorder;
import io.lapse.event.DeadLetter;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.KafkaClients;
import io.lapse.runtime.LapseRuntime;
import io.lapse.simulator.Fleet;
import io.lapse.simulator.UpstreamSimulator;
import io.lapse.store.timers.OrderView;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The whole pipeline on real Kafka, Redis and HTTP: 200 orders push every second with ttl 3 s; 20 go silent and
 * 10 finish. Each silent order is pulled once within ttl + 2 s; nobody else is; a poison push stops nothing.
 */
@Tag("slow")
class EndToEndTest {

    private static final long TTL = 3_000;

    private static DevStack stack;
    private static UpstreamSimulator simulator;
    private static LapseRuntime lapse;
    private static LapseConfig config;

    private static LapseUnderTest everything;

    @BeforeAll
    static void startEverything() throws Exception {
        everything = LapseUnderTest.start(TTL);
        stack = everything.stack;
        simulator = everything.simulator;
        lapse = everything.lapse;
        config = everything.config;
    }

    @AfterAll
    static void stopEverything() {
        everything.close();
    }

    @Test
    void silentOrdersArePulledOnceAndNoOneElseIs() throws Exception {
        Fleet fleet = simulator.fleet();
        List<String> orders = fleet.startMany(200, "e2e-");
        await().atMost(Duration.ofSeconds(60))
                .until(() ->
                        lapse.store().inspect(orders).join().values().stream().allMatch(OrderView::isWatched));
        await().atMost(Duration.ofSeconds(60)).until(lapse.health()::isReady);

        try (TopicRecorder expired = TopicRecorder.start(
                        stack.bootstrapServers(), config.topics().expired());
                TopicRecorder pulled = TopicRecorder.start(
                        stack.bootstrapServers(), config.topics().pulled());
                TopicRecorder dlq = TopicRecorder.start(
                        stack.bootstrapServers(), config.topics().dlq())) {
            long poisonSentAt = System.currentTimeMillis();
            sendPoisonPush();
            List<String> silent = orders.subList(0, 20);
            List<String> finished = orders.subList(20, 30);
            silent.forEach(fleet::silence);
            finished.forEach(fleet::finish);

            await().atMost(Duration.ofMillis(TTL + 20_000))
                    .until(() -> okPulls(pulled).keySet().containsAll(silent));
            // live orders keep pushing through at least one more ttl: none of them may expire meanwhile
            await().during(Duration.ofMillis(TTL))
                    .atMost(Duration.ofMillis(TTL + 10_000))
                    .until(() -> silent.containsAll(expiredOrders(expired)));

            List<TimerExpired> expiries = expired.values(JsonCodec.TIMER_EXPIRED::decode);
            assertThat(expiredOrders(expired))
                    .as("only silent orders expire")
                    .containsExactlyInAnyOrderElementsOf(silent);
            Map<String, PullResult> ok = okPulls(pulled);
            for (String id : silent) {
                List<TimerExpired> first = expiries.stream()
                        .filter(e -> e.orderId().equals(id) && e.attempt() == 1)
                        .toList();
                TimerExpired expiry = first.get(0);
                assertThat(first.stream().filter(e -> e.lastSeen() == expiry.lastSeen()))
                        .as("exactly one attempt-1 expiry for %s's silence", id)
                        .hasSize(1);
                assertThat(ok.get(id).pulledAt() - expiry.lastSeen())
                        .as("pulled within ttl + 2 s of its last push")
                        .isLessThanOrEqualTo(TTL + 2_000);
                assertThat(ok.get(id).expiry()).isEqualTo(PullResult.ExpiryRef.of(expiry));
            }
            finished.forEach(id -> assertThat(fleet.pullsServed(id))
                    .as("finished %s is never pulled", id)
                    .isZero());
            assertThat(dlq.values(JsonCodec.DEAD_LETTER::decode))
                    .as("one, from ingest")
                    .extracting(DeadLetter::key)
                    .containsExactly("poison");
            assertThat(lapse.store().inspect(orders.subList(30, 200)).join().values())
                    .as("ingest applied the pushes behind the poison")
                    .allSatisfy(view -> assertThat(view.lastSeen().orElse(0)).isGreaterThan(poisonSentAt));
        }
    }

    private static Set<String> expiredOrders(TopicRecorder expired) {
        return expired.values(JsonCodec.TIMER_EXPIRED::decode).stream()
                .map(TimerExpired::orderId)
                .collect(Collectors.toSet());
    }

    private static Map<String, PullResult> okPulls(TopicRecorder pulled) {
        return pulled.values(JsonCodec.PULL_RESULT::decode).stream()
                .filter(p -> p.outcome() == PullResult.Outcome.OK)
                .collect(Collectors.toMap(PullResult::orderId, p -> p, (a, b) -> a));
    }

    private static void sendPoisonPush() {
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaClients(config.kafka()).producer("e2e-poison", Map.of())) {
            producer.send(new ProducerRecord<>(
                    config.topics().push(),
                    "poison".getBytes(StandardCharsets.UTF_8),
                    "{\"orderId\":".getBytes(StandardCharsets.UTF_8)));
        }
    }
}
