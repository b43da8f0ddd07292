package io.lapse.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.DevStackExtension;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.KafkaClients;
import io.lapse.store.watermarks.WatermarkReport;
import io.lapse.store.watermarks.Watermarks;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The watermark under the faults production sees: an ingest that freezes or dies while pushes keep coming,
 * partitions that appear, and reports of partitions that are gone. Live orders never fire; silent ones still do.
 */
@Tag("slow")
class WatermarkFaultsTest {

    private static final long TTL = 2_000;
    private static final long PUSH_EVERY_MS = 300;

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.shared();

    private static TimerPipeline pipeline(Map<String, String> overrides) {
        Map<String, String> settings = new HashMap<>(Map.of("timer.ttl", TTL + "ms", "timer.repeat", "1h"));
        settings.putAll(overrides);
        return new TimerPipeline(stack.bootstrapServers(), stack.redisUri(), settings);
    }

    private static List<String> fired(TimerPipeline pipeline) {
        return pipeline.expiries().stream().map(TimerExpired::orderId).toList();
    }

    /** Silences the orders and expects exactly them to fire, each within {@code within} of its deadline. */
    private static void silentOrdersFire(TimerPipeline pipeline, Pusher pusher, List<String> silent, long within) {
        silent.forEach(pusher::silence);
        await().atMost(Duration.ofMillis(TTL + within + 10_000))
                .until(() -> fired(pipeline).containsAll(silent));
        assertThat(fired(pipeline)).containsExactlyInAnyOrderElementsOf(silent);
        assertThat(pipeline.expiries())
                .allSatisfy(e -> assertThat(e.firedAt() - e.deadline()).isLessThan(within));
    }

    @Test
    void anIngestFrozenWhilePushesKeepComingFiresNoLiveOrderWhenItResumes() throws Exception {
        try (TimerPipeline pipeline = pipeline(Map.of());
                Pusher pusher = new Pusher(pipeline, PUSH_EVERY_MS, 3)) {
            FreezableStore store = new FreezableStore(pipeline.store);
            pipeline.startIngest(store, Map.of());
            pipeline.startTimer();
            List<String> orders = pusher.add("order-", 30);
            pipeline.awaitWatched(orders);

            store.freeze();
            try {
                await().atMost(Duration.ofSeconds(10)).until(store::isHoldingAThread);
                await().during(Duration.ofMillis(3 * TTL))
                        .atMost(Duration.ofMillis(3 * TTL + 10_000))
                        .until(() -> pipeline.expiries().isEmpty());
            } finally {
                store.thaw();
            }

            // what the consumer fetched before the freeze says it was caught up then; it is not now
            await().during(Duration.ofMillis(2 * TTL))
                    .atMost(Duration.ofMillis(2 * TTL + 10_000))
                    .until(() -> pipeline.expiries().isEmpty());
            silentOrdersFire(pipeline, pusher, orders.subList(0, 5), 1_000);
        }
    }

    @Test
    void aPartitionAddedToThePushTopicHoldsFiringBackUntilIngestReadsIt() throws Exception {
        try (TimerPipeline pipeline = pipeline(Map.of("topics.partitions", "2"));
                Pusher pusher = new Pusher(pipeline, PUSH_EVERY_MS, 2);
                Admin admin = new KafkaClients(pipeline.config.kafka()).admin()) {
            pipeline.startIngest();
            pipeline.startTimer();
            List<String> orders = pusher.add("order-", 20);
            pipeline.awaitWatched(orders);

            admin.createPartitions(Map.of(pipeline.config.topics().push(), NewPartitions.increaseTo(4)))
                    .all()
                    .get();
            // every order's next push lands where ingest has not read yet: it learns of the partitions in seconds
            pusher.pushTo(2, 3);

            await().during(Duration.ofSeconds(10))
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> pipeline.expiries().isEmpty());
            silentOrdersFire(pipeline, pusher, orders.subList(0, 5), 1_000);
        }
    }

    @Test
    void aReportOfAPartitionThatNoLongerExistsHoldsNothingBack() throws Exception {
        try (TimerPipeline pipeline = pipeline(Map.of());
                Pusher pusher = new Pusher(pipeline, PUSH_EVERY_MS, 3)) {
            // e.g. left by an ingest that read the topic before it was recreated with fewer partitions
            String gone = Watermarks.field(pipeline.config.topics().push(), 7);
            pipeline.watermarks
                    .report(new WatermarkReport(Map.of(gone, 0L), Map.of(), 0, 0))
                    .join();
            pipeline.startIngest();
            pipeline.startTimer();
            List<String> orders = pusher.add("order-", 10);
            pipeline.awaitWatched(orders);

            silentOrdersFire(pipeline, pusher, orders.subList(0, 5), 1_000);
            assertThat(pipeline.watermarks.all().join()).as("left for on-call").containsKey(gone);
        }
    }

    @Test
    void anIngestKilledAndRestartedTwoSecondsLaterResumesFiringWithinFiveSeconds() throws Exception {
        try (TimerPipeline pipeline = pipeline(Map.of());
                Pusher pusher = new Pusher(pipeline, PUSH_EVERY_MS, 3)) {
            Map<String, String> instance = Map.of("instance.id", "ingest-host-0");
            FreezableStore killed = new FreezableStore(pipeline.store);
            pipeline.startIngest(killed, instance);
            pipeline.startTimer();
            List<String> orders = pusher.add("order-", 30);
            List<String> silent = orders.subList(0, 10);
            pipeline.awaitWatched(orders);

            silent.forEach(pusher::silence);
            // killed mid-batch: it never applies, reports, commits or leaves the group again
            killed.freeze();
            try {
                await().atMost(Duration.ofSeconds(10)).until(killed::isHoldingAThread);
                // the timer stands in for it meanwhile: a silent order whose last push was applied may fire
                await().during(Duration.ofSeconds(2))
                        .atMost(Duration.ofSeconds(12))
                        .until(() -> silent.containsAll(fired(pipeline)));

                long restarted = System.currentTimeMillis();
                pipeline.startIngest(pipeline.store, instance);

                await().atMost(Duration.ofSeconds(15))
                        .until(() -> fired(pipeline).containsAll(silent));
                assertThat(fired(pipeline)).as("no live order fires").containsExactlyInAnyOrderElementsOf(silent);
                assertThat(pipeline.expiries())
                        .allSatisfy(e -> assertThat(e.firedAt() - restarted)
                                .as("fired within 5 s of the restart")
                                .isLessThan(5_000));
            } finally {
                killed.thaw();
            }
        }
    }
}
