package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.DevStack;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.store.TimerKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 41's last edge: Redis loses an order's due entry just before its deadline, and the order pushes again a few
 * seconds after the deadline, before the drift scan could write the entry back: the push re-arms it, so the timer never
 * fires that silence. The compensator's mirror, which read every push, must publish its expiry. Ingest, timer,
 * puller and compensator run against a real Kafka, Redis and an HTTP upstream; the outcome is asserted on the
 * expired and pulled topics. Half a minute or so (the drift scan's interval is 10 s, so that it cannot restore the
 * entry in time), hence extended.
 */
@ExtendWith(SharedStack.class)
@Tag("slow")
@Tag("extended")
class SilenceEndedUnfiredTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final Duration SCAN = Duration.ofSeconds(10);
    private static final Duration GENEROUS = Duration.ofSeconds(60);
    /** How long the mirror waits for the timer's expiry of a silence a push ended (UnfiredSilences.GRACE). */
    private static final Duration UNFIRED_SILENCE_GRACE = Duration.ofSeconds(5);

    @TempDir
    Path stateDir;

    @Test
    void aSilenceWhoseDueEntryRedisLostAndThatAPushEndedBeforeTheDriftScanStillFiresAndALiveOrderNever(DevStack stack)
            throws Exception {
        try (FleetUpstream upstream = FleetUpstream.start();
                RunningLapse lapse = new RunningLapse(
                        stack.bootstrapServers(),
                        stack.redisUri(),
                        Map.of(
                                "timer.ttl",
                                TTL.toMillis() + "ms",
                                "timer.repeat",
                                TTL.toMillis() + "ms",
                                "upstream.base-url",
                                upstream.baseUrl(),
                                "compensator.scan-interval",
                                SCAN.toMillis() + "ms"))) {
            lapse.startPipeline().startCompensator(stateDir);
            lapse.expiries();
            lapse.pulls();
            await().atMost(GENEROUS).until(() -> lapse.compensator().isReady() && lapse.hasEveryEpoch());
            try (Fleet fleet = new Fleet(lapse.producer(), lapse.config.topics().push(), upstream, 2)) {
                String silent = fleet.orders().get(0);
                String live = fleet.orders().get(1);
                fleet.start(Duration.ofSeconds(1));
                await().atMost(GENEROUS).until(() -> lapse.watchesAll(fleet.orders()));

                // fall silent right after a drift scan, so that the next one comes well after the order pushes again
                await().atMost(SCAN.multipliedBy(2))
                        .pollInterval(Duration.ofMillis(20))
                        .until(SilenceEndedUnfiredTest::justAfterADriftScan);
                fleet.silence(List.of(silent));
                long deadline = upstream.newest(silent).ts() + TTL.toMillis();
                await().atMost(GENEROUS).until(() -> System.currentTimeMillis() >= deadline - 800);
                deleteDueSets(lapse);
                await().atMost(GENEROUS).until(() -> System.currentTimeMillis() >= deadline + 3_000);
                fleet.resume(List.of(silent));
                long roundEnds = (System.currentTimeMillis() / SCAN.toMillis() + 1) * SCAN.toMillis();

                await().atMost(GENEROUS).untilAsserted(() -> {
                    assertThat(lapse.expiries()).as("the silence's expiry").anySatisfy(expiry -> {
                        assertThat(expiry.orderId()).isEqualTo(silent);
                        assertThat(expiry.deadline()).isEqualTo(deadline);
                        assertThat(expiry.attempt()).isEqualTo(1);
                        assertThat(expiry.firedAt())
                                .as("fired after its grace from the push that ended it, not from the round's end")
                                .isLessThan(roundEnds + UNFIRED_SILENCE_GRACE.toMillis());
                    });
                    assertThat(lapse.pulls()).as("its pull result").anySatisfy(pull -> {
                        assertThat(pull.orderId()).isEqualTo(silent);
                        assertThat(pull.expiry().deadline()).isEqualTo(deadline);
                    });
                });
                assertThat(lapse.expiries())
                        .as("the order pushing every second throughout")
                        .extracting(TimerExpired::orderId)
                        .doesNotContain(live);
                assertThat(lapse.pulls()).extracting(PullResult::orderId).doesNotContain(live);
            }
        }
    }

    /** Drift scans start at whole multiples of their interval on the wall clock. */
    private static boolean justAfterADriftScan() {
        long intoTheInterval = System.currentTimeMillis() % SCAN.toMillis();
        return intoTheInterval > 500 && intoTheInterval < 700;
    }

    /** Deletes every shard's due set, as the chaos run's strike does. */
    private static void deleteDueSets(RunningLapse lapse) {
        TimerKeys keys = new TimerKeys(
                lapse.config.redis().keyPrefix(), lapse.config.timer().shards());
        String[] due = IntStream.range(0, keys.shards()).mapToObj(keys::due).toArray(String[]::new);
        lapse.redis.async().del(due).toCompletableFuture().join();
    }
}
