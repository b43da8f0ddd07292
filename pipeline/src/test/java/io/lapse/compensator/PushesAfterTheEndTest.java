package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.DevStack;
import io.lapse.event.TimerExpired;
import io.lapse.store.timers.OrderView;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 41: a producer that keeps pushing for an order it finished (a bug upstream, or reordering) never gets the order
 * watched again, however long past timer.tombstone-retention it pushes: ingest, the timer's pruning, the mirror and the
 * drift scan all keep it finished. Ingest, timer, puller and compensator against a real Kafka and Redis. Extended (about
 * 25 s, most of it waiting for the timer's pruning round, every 10 s); StatusesAfterTheEndTest checks the rule in verify.
 */
@ExtendWith(SharedStack.class)
@Tag("extended")
class PushesAfterTheEndTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final Duration RETENTION = Duration.ofSeconds(2);
    private static final Duration PUSH_EVERY = Duration.ofMillis(500);

    @TempDir
    Path stateDir;

    @Test
    void aFinishedOrderThatPushesOnPastTheRetentionNeverFires(DevStack stack) throws Exception {
        try (FleetUpstream upstream = FleetUpstream.start();
                RunningLapse lapse = new RunningLapse(
                        stack.bootstrapServers(),
                        stack.redisUri(),
                        Map.of(
                                "timer.ttl",
                                TTL.toMillis() + "ms",
                                "timer.tombstone-retention",
                                RETENTION.toMillis() + "ms",
                                "upstream.base-url",
                                upstream.baseUrl(),
                                "compensator.scan-interval",
                                "2s"))) {
            lapse.startPipeline().startCompensator(stateDir);
            await().atMost(Duration.ofSeconds(60)).until(lapse::hasEveryEpoch);
            try (Fleet fleet = new Fleet(lapse.producer(), lapse.config.topics().push(), upstream, 9)) {
                fleet.start(PUSH_EVERY);
                List<String> pushingOn = fleet.orders().subList(0, 4);
                List<String> finished = fleet.orders().subList(4, 8);
                List<String> control = fleet.orders().subList(8, 9);
                await().atMost(Duration.ofSeconds(30)).until(() -> lapse.watchesAll(fleet.orders()));

                fleet.finish(fleet.orders().subList(0, 8));
                fleet.resume(pushingOn);
                // the timer forgets the marks of the orders that finished and stopped: the retention has passed, and
                // the orders that push on have pushed past it
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> lapse.store.inspect(finished).join().values().stream()
                                .allMatch(view -> view.phase() == OrderView.Phase.UNKNOWN));
                assertThat(lapse.store.inspect(pushingOn).join().values())
                        .as("the orders that push on keep their mark")
                        .allSatisfy(view -> assertThat(view.phase()).isEqualTo(OrderView.Phase.ENDED));

                // a couple of drift scans later, they all stop; a live order stopping with them fires its silence, by
                // when any of them, watched again, would have fired too
                long moreScans = System.currentTimeMillis() + 5_000;
                await().atMost(Duration.ofSeconds(30)).until(() -> lapse.watermark() > moreScans);
                fleet.silence(pushingOn);
                fleet.silence(control);
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> lapse.expiries().stream().anyMatch(e -> control.contains(e.orderId())));

                assertThat(lapse.expiries().stream().map(TimerExpired::orderId))
                        .as("finished orders fired")
                        .doesNotContainAnyElementsOf(fleet.orders().subList(0, 8));
            }
        }
    }
}
