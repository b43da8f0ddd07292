package io.lapse.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.DevStackExtension;
import io.lapse.event.TimerExpired;
import io.lapse.ingest.IngestService;
import io.lapse.store.timers.OrderView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The watermark: when our own ingest lags, orders whose pushes wait unread in Kafka must not look silent; when
 * upstream itself goes quiet, silent orders must still fire on time, idle partitions notwithstanding.
 */
@Tag("slow")
class IngestLagTest {

    private static final long TTL = 2_000;

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.shared();

    @Test
    void aPausedIngestCausesNoExpiryForLiveOrdersYetSilentOrdersFireOnTimeOnceUpstreamGoesQuiet() throws Exception {
        try (TimerPipeline pipeline =
                        new TimerPipeline(stack.bootstrapServers(), stack.redisUri(), Map.of("timer.ttl", TTL + "ms"));
                Pusher pusher = new Pusher(pipeline, 300, 2)) {
            IngestService ingest = pipeline.startIngest();
            pipeline.startTimer();
            List<String> orders = pusher.add("order-", 30);
            pipeline.awaitWatched(orders);

            ingest.close();
            await().during(Duration.ofMillis(3 * TTL))
                    .atMost(Duration.ofMillis(3 * TTL + 10_000))
                    .until(() -> pipeline.expiries().isEmpty());

            pipeline.startIngest();
            await().during(Duration.ofMillis(2 * TTL))
                    .atMost(Duration.ofMillis(2 * TTL + 10_000))
                    .until(() -> pipeline.expiries().isEmpty());

            pusher.silenceAll();
            await().atMost(Duration.ofMillis(TTL + 5_000))
                    .until(() -> pipeline.expiries().size() >= 30);
            assertThat(pipeline.expiries())
                    .extracting(TimerExpired::orderId)
                    .containsExactlyInAnyOrderElementsOf(orders);
            assertThat(pipeline.expiries()).allSatisfy(e -> {
                assertThat(e.attempt()).isEqualTo(1);
                assertThat(e.firedAt() - e.deadline())
                        .as("fired on time although partition 2 never had a record")
                        .isBetween(0L, 1_000L);
            });
        }
    }

    @Test
    void whileIngestIsAwayTheTimerFiresTheSilentOrderNothingUnreadSpeaksOfAndNoneOfTheLiveOnes() throws Exception {
        // long enough that ingest, closed a push interval or two after the silent order's last push, is gone well
        // before
        // its deadline
        long ttl = 4_000;
        try (TimerPipeline pipeline =
                        new TimerPipeline(stack.bootstrapServers(), stack.redisUri(), Map.of("timer.ttl", ttl + "ms"));
                Pusher pusher = new Pusher(pipeline, 300, 2)) {
            IngestService ingest = pipeline.startIngest();
            pipeline.startTimer();
            String silent = "silent";
            pusher.add(silent);
            List<String> orders = new ArrayList<>(pusher.add("live-", 30));
            orders.add(silent);
            pipeline.awaitWatched(orders);
            pusher.silence(silent);
            // a round of pushes without it applied after its last: then ingest goes away for good
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                Map<String, OrderView> seen =
                        pipeline.store.inspect(List.of(silent, "live-0")).join();
                return seen.get("live-0").lastSeen().getAsLong()
                                - seen.get(silent).lastSeen().getAsLong()
                        >= 300;
            });
            ingest.close();
            long away = System.currentTimeMillis();

            await().atMost(Duration.ofMillis(ttl + 10_000))
                    .until(() -> !pipeline.expiries().isEmpty());
            await().during(Duration.ofMillis(2 * ttl))
                    .atMost(Duration.ofMillis(2 * ttl + 10_000))
                    .untilAsserted(() -> assertThat(pipeline.expiries())
                            .as("no live order fired while ingest was away")
                            .extracting(TimerExpired::orderId)
                            .containsOnly(silent));
            TimerExpired fired = pipeline.expiries().get(0);
            assertThat(fired.attempt()).isEqualTo(1);
            assertThat(fired.firedAt()).as("fired while ingest was away").isGreaterThan(away);
            assertThat(fired.firedAt() - fired.deadline())
                    .as("the half second the timer waits for ingest, and its reading, on a loaded machine")
                    .isBetween(0L, 3_000L);
        }
    }
}
