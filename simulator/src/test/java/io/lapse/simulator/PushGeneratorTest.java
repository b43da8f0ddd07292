package io.lapse.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.KafkaBroker;
import io.lapse.devstack.TopicRecorder;
import io.lapse.event.StatusPush;
import io.lapse.kafka.KafkaClients;
import io.lapse.time.SettableClock;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SharedKafka.class)
@Tag("slow")
class PushGeneratorTest {

    private static final Duration INTERVAL = Duration.ofMillis(200);
    private static final AtomicInteger RUN = new AtomicInteger();

    private static KafkaBroker broker;
    private static KafkaClients clients;

    private PushGenerator generator;
    private TopicRecorder recorder;

    @BeforeAll
    static void connect(KafkaBroker sharedBroker) {
        broker = sharedBroker;
        clients = SharedKafka.clients(broker);
    }

    @AfterEach
    void stop() {
        generator.close();
        if (recorder != null) {
            recorder.close();
        }
    }

    @Test
    void everyOrderIsPushedEachIntervalKeyedByItsIdWithIncreasingTs() {
        Fleet fleet = startRecorded(Clock.systemUTC());
        List<String> ids = fleet.startMany(20, "p-");

        await().atMost(Duration.ofSeconds(20)).until(() -> everyOrderPushed(ids, 5));

        for (String id : ids) {
            List<Long> ts = pushesOf(id).stream().map(StatusPush::ts).toList();
            assertThat(ts).isSorted().doesNotHaveDuplicates();
            double meanGap = (double) (ts.get(ts.size() - 1) - ts.get(0)) / (ts.size() - 1);
            assertThat(meanGap).as("mean time between pushes of " + id).isBetween(150.0, 400.0);
            assertThat(pushesOf(id)).allSatisfy(push -> {
                assertThat(push.status()).isEqualTo("CHARGING");
                assertThat(push.payload()).containsKeys("soc", "power");
            });
        }
        List<Long> firstPushes =
                ids.stream().map(id -> pushesOf(id).get(0).ts()).toList();
        assertThat(firstPushes.stream().distinct().count())
                .as("pushes spread over the interval")
                .isGreaterThan(10);
    }

    @Test
    void pushesCarryTheFleetClocksTimeNotTheWallClocks() {
        SettableClock clock = SettableClock.at(1_000_000L);
        Fleet fleet = startRecorded(clock);
        fleet.start("o-1");

        await().atMost(Duration.ofSeconds(20)).until(() -> hasPushAt("o-1", 1_000_000L));
        clock.advance(Duration.ofHours(1));
        await().atMost(Duration.ofSeconds(20)).until(() -> hasPushAt("o-1", 1_000_000L + 3_600_000L));
    }

    @Test
    void aSilencedOrderStopsAppearingAndAResumedOneAppearsAgain() {
        Fleet fleet = startRecorded(Clock.systemUTC());
        List<String> ids = fleet.startMany(6, "s-");
        await().atMost(Duration.ofSeconds(20)).until(() -> everyOrderPushed(ids, 1));

        fleet.silence(ids.get(0));
        long silencedAt = System.currentTimeMillis();
        await().atMost(Duration.ofSeconds(20)).until(() -> everyOrderPushed(ids.subList(1, 6), 6));
        assertThat(pushesOf(ids.get(0))).allMatch(push -> push.ts() <= silencedAt);

        fleet.resume(ids.get(0));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> pushesOf(ids.get(0)).stream().anyMatch(push -> push.ts() > silencedAt));
    }

    @Test
    void aFinishedOrdersLastPushIsItsOnlyFinishedOne() {
        Fleet fleet = startRecorded(Clock.systemUTC());
        List<String> ids = fleet.startMany(4, "f-");
        await().atMost(Duration.ofSeconds(20)).until(() -> everyOrderPushed(ids, 1));

        fleet.finish(ids.get(0));
        await().atMost(Duration.ofSeconds(20)).until(() -> everyOrderPushed(ids.subList(1, 4), 6));

        List<StatusPush> pushes = pushesOf(ids.get(0));
        assertThat(pushes.get(pushes.size() - 1).status()).isEqualTo("FINISHED");
        assertThat(pushes).filteredOn(push -> push.status().equals("FINISHED")).hasSize(1);
    }

    @Test
    void itSustainsTenThousandPushesPerSecond() {
        Fleet fleet = start(Clock.systemUTC(), 6, false); // recording 25,000 records/s would slow the test down
        fleet.startMany(5_000, "load-"); // 25,000 pushes/s at the 200 ms interval
        await().atMost(Duration.ofSeconds(20)).until(() -> generator.pushesSent() >= 5_000);

        long before = generator.pushesSent();
        await().atMost(Duration.ofSeconds(2)).until(() -> generator.pushesSent() >= before + 20_000);
        assertThat(generator.pushesFailed()).isZero();
    }

    /** Pushes to a fresh topic that a recorder reads. */
    private Fleet startRecorded(Clock clock) {
        return start(clock, 3, true);
    }

    private Fleet start(Clock clock, int partitions, boolean recorded) {
        String topic = "push-" + RUN.incrementAndGet();
        broker.createTopic(topic, partitions);
        Fleet fleet = new Fleet(clock);
        generator = new PushGenerator(fleet, clients, topic, INTERVAL, () -> {});
        recorder = recorded ? TopicRecorder.start(broker.bootstrapServers(), topic) : null;
        generator.start();
        return fleet;
    }

    private List<StatusPush> pushesOf(String orderId) {
        return RecordedPushes.of(recorder, orderId);
    }

    private boolean hasPushAt(String orderId, long ts) {
        return pushesOf(orderId).stream().anyMatch(push -> push.ts() == ts);
    }

    private boolean everyOrderPushed(List<String> ids, int times) {
        return ids.stream().allMatch(id -> pushesOf(id).size() >= times);
    }
}
