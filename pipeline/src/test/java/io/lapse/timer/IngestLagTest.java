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
            List<String> orders = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                orders.add("order-" + i);
                pusher.add("order-" + i);
            }
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> pipeline.store.inspect(orders).join().values().stream()
                            .allMatch(OrderView::isWatched));

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
}
