package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.DevStack;
import io.lapse.event.PullResult;
import io.lapse.event.StatusPush;
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
                RunningLapse lapse = started(stack, upstream)) {
            try (Fleet fleet = watchedFleetOfTwo(lapse, upstream)) {
                String silent = fleet.orders().get(0);
                String live = fleet.orders().get(1);

                // fall silent right after a drift scan, so that the next one comes well after the order pushes again
                awaitJustAfterADriftScan();
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

    @Test
    void aSilenceThatAPulledStatusAloneEndedWhileRedisHadLostItsDeadlineStillFires(DevStack stack) throws Exception {
        try (FleetUpstream upstream = FleetUpstream.start();
                RunningLapse lapse = started(stack, upstream)) {
            try (Fleet fleet = watchedFleetOfTwo(lapse, upstream)) {
                String silent = fleet.orders().get(0);
                String live = fleet.orders().get(1);

                // the order falls silent right after a drift scan, and upstream is slow to answer its pull
                awaitJustAfterADriftScan();
                upstream.hold(silent);
                fleet.silence(List.of(silent));
                await().atMost(GENEROUS).until(() -> upstream.isHolding(silent));
                // one push while the pull waits: a silence of its own begins with it
                long lastSeen = fleet.pushNow(silent).ts();
                long deadline = lastSeen + TTL.toMillis();
                await().atMost(GENEROUS).until(() -> System.currentTimeMillis() >= deadline - 800);
                deleteDueSets(lapse);
                await().atMost(GENEROUS).until(() -> System.currentTimeMillis() >= deadline + 500);
                // upstream answers the old pull with a status newer than that silence's deadline: it re-arms the order
                upstream.answerHeld(new StatusPush(silent, "CHARGING", System.currentTimeMillis()));

                await().atMost(GENEROUS).untilAsserted(() -> {
                    assertThat(lapse.expiries()).as("the silence's expiry").anySatisfy(expiry -> {
                        assertThat(expiry.orderId()).isEqualTo(silent);
                        assertThat(expiry.deadline()).isEqualTo(deadline);
                        assertThat(expiry.attempt()).isEqualTo(1);
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
            }
        }
    }

    /** The four services, ready, with a ttl of 3 s and drift scans every 10 s. */
    private RunningLapse started(DevStack stack, FleetUpstream upstream) throws Exception {
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
                        // a held pull waits for its answer (FleetUpstream.hold)
                        "upstream.timeout",
                        "30s",
                        "compensator.scan-interval",
                        SCAN.toMillis() + "ms"));
        try {
            lapse.startPipeline().startCompensator(stateDir);
            lapse.expiries();
            lapse.pulls();
            await().atMost(GENEROUS).until(() -> lapse.compensator().isReady() && lapse.hasEveryEpoch());
            return lapse;
        } catch (RuntimeException | Error e) {
            lapse.close();
            throw e;
        }
    }

    /** Two orders pushing every second, once Redis watches both. */
    private static Fleet watchedFleetOfTwo(RunningLapse lapse, FleetUpstream upstream) {
        Fleet fleet = new Fleet(lapse.producer(), lapse.config.topics().push(), upstream, 2);
        fleet.start(Duration.ofSeconds(1));
        await().atMost(GENEROUS).until(() -> lapse.watchesAll(fleet.orders()));
        return fleet;
    }

    /** Drift scans start at whole multiples of their interval on the wall clock. */
    private static void awaitJustAfterADriftScan() {
        await().atMost(SCAN.multipliedBy(2)).pollInterval(Duration.ofMillis(20)).until(() -> {
            long intoTheInterval = System.currentTimeMillis() % SCAN.toMillis();
            return intoTheInterval > 500 && intoTheInterval < 700;
        });
    }

    /** Deletes every shard's due set, as the chaos run's strike does. */
    private static void deleteDueSets(RunningLapse lapse) {
        TimerKeys keys = new TimerKeys(
                lapse.config.redis().keyPrefix(), lapse.config.timer().shards());
        String[] due = IntStream.range(0, keys.shards()).mapToObj(keys::due).toArray(String[]::new);
        lapse.redis.async().del(due).toCompletableFuture().join();
    }
}
