package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.DevStack;
import io.lapse.event.TimerExpired;
import io.lapse.store.TimerKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redis loses some orders' timers without losing its epochs, as keys deleted by hand are: nothing tells the
 * compensator, and only its drift scan can bring back an order that has gone silent, once its deadline has passed (a
 * push the scan has not seen may have moved it). Ingest, timer, puller and compensator run against a real Kafka,
 * Redis and an HTTP upstream.
 */
@ExtendWith(SharedStack.class)
@Tag("slow")
class DriftScanTest {

    private static final Duration TTL = Duration.ofSeconds(16);
    private static final Duration SCAN_INTERVAL = Duration.ofSeconds(2);
    private static final Duration PUSH_EVERY = Duration.ofSeconds(1);
    /** The scan writes a lost silent order back in its first round after the deadline; the timer fires it then. */
    private static final Duration FIRED_WITHIN = SCAN_INTERVAL.plusSeconds(5);

    @TempDir
    Path stateDir;

    @Test
    void aSilentOrderWhoseTimerRedisLostFiresAtItsDeadlineWithinARoundAndALiveOneNeverFires(DevStack stack)
            throws Exception {
        try (FleetUpstream upstream = FleetUpstream.start();
                RunningLapse lapse = new RunningLapse(
                        stack.bootstrapServers(),
                        stack.redisUri(),
                        Map.of(
                                "timer.ttl", TTL.toMillis() + "ms",
                                "upstream.base-url", upstream.baseUrl(),
                                "compensator.scan-interval", SCAN_INTERVAL.toMillis() + "ms"))) {
            lapse.startPipeline().startCompensator(stateDir);
            await().atMost(Duration.ofSeconds(60)).until(lapse::hasEveryEpoch);
            try (Fleet fleet = new Fleet(lapse.producer(), lapse.config.topics().push(), upstream, 40)) {
                fleet.start(PUSH_EVERY);
                List<String> silent = fleet.orders().subList(0, 10);
                List<String> live = fleet.orders().subList(10, 40);
                await().atMost(Duration.ofSeconds(30)).until(() -> armed(lapse, fleet.orders()) == 40);
                fleet.silence(silent);
                long silenced = System.currentTimeMillis();
                // the silenced orders' last pushes reach Redis before their timers go
                await().atMost(Duration.ofSeconds(30)).until(() -> lapse.watermark() > silenced);
                long lost = forget(lapse, fleet.orders());
                assertThat(lost).isEqualTo(40);

                await().atMost(TTL.plus(Duration.ofSeconds(30)))
                        .until(() -> firstExpiries(lapse).keySet().containsAll(silent));

                Map<String, TimerExpired> fired = firstExpiries(lapse);
                assertThat(fired.keySet()).as("live orders fired").doesNotContainAnyElementsOf(live);
                assertThat(fired.values())
                        .as("each silent order fired for its deadline, a ttl after its last push, written back within a"
                                + " round of it")
                        .allSatisfy(expiry -> {
                            assertThat(expiry.deadline()).isEqualTo(expiry.lastSeen() + TTL.toMillis());
                            assertThat(expiry.source()).isEqualTo(TimerExpired.Source.COMPENSATOR);
                            assertThat(expiry.firedAt())
                                    .isBetween(expiry.deadline(), expiry.deadline() + FIRED_WITHIN.toMillis());
                        });
            }
        }
    }

    /** Orders with a timer in their shard's sorted set. */
    private static long armed(RunningLapse lapse, List<String> orders) {
        TimerKeys keys = keys(lapse);
        return orders.stream()
                .filter(order -> lapse.redis
                                .async()
                                .zscore(keys.due(keys.shardOf(order)), order)
                                .toCompletableFuture()
                                .join()
                        != null)
                .count();
    }

    /** Takes the orders' timers out of Redis, and nothing else: the epochs stay. */
    private static long forget(RunningLapse lapse, List<String> orders) {
        TimerKeys keys = keys(lapse);
        return orders.stream()
                .mapToLong(order -> lapse.redis
                        .async()
                        .zrem(keys.due(keys.shardOf(order)), order)
                        .toCompletableFuture()
                        .join())
                .sum();
    }

    private static TimerKeys keys(RunningLapse lapse) {
        return new TimerKeys(
                lapse.config.redis().keyPrefix(), lapse.config.timer().shards());
    }

    private static Map<String, TimerExpired> firstExpiries(RunningLapse lapse) {
        return lapse.expiries().stream()
                .collect(Collectors.toMap(TimerExpired::orderId, Function.identity(), (first, later) -> first));
    }
}
