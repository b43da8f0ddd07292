package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.DevStack;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.timer.TimerService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 41: a silence that ends after its deadline while nothing could fire it (here the timer is stopped; in the chaos
 * runs a frozen ingest or a postponed rebuild) still fires, once, with its own deadline, when firing resumes, and the
 * puller answers it; no live order fires. Ingest, timer, puller and compensator against a real Kafka and Redis.
 */
@ExtendWith(SharedStack.class)
@Tag("slow")
class LateSilenceTest {

    private static final Duration TTL = Duration.ofSeconds(4);
    private static final Duration PUSH_EVERY = Duration.ofMillis(500);

    @TempDir
    Path stateDir;

    @Test
    void aSilenceEndedAfterItsDeadlineWhileTheTimerWasStoppedFiresWithItsOwnDeadlineAndIsPulled(DevStack stack)
            throws Exception {
        try (FleetUpstream upstream = FleetUpstream.start();
                RunningLapse lapse = new RunningLapse(
                        stack.bootstrapServers(),
                        stack.redisUri(),
                        Map.of(
                                "timer.ttl",
                                TTL.toMillis() + "ms",
                                "upstream.base-url",
                                upstream.baseUrl(),
                                "compensator.scan-interval",
                                "2s"))) {
            lapse.startIngestAndPuller().startCompensator(stateDir);
            TimerService timer = lapse.startTimer();
            await().atMost(Duration.ofSeconds(60)).until(lapse::hasEveryEpoch);
            try (Fleet fleet = new Fleet(lapse.producer(), lapse.config.topics().push(), upstream, 10)) {
                fleet.start(PUSH_EVERY);
                List<String> silent = fleet.orders().subList(0, 5);
                List<String> live = fleet.orders().subList(5, 10);
                await().atMost(Duration.ofSeconds(30)).until(() -> lapse.watchesAll(fleet.orders()));

                timer.close();
                fleet.silence(silent);
                long silenced = System.currentTimeMillis();
                // ingest reads past every deadline of the silence (nothing fires: no timer runs) ...
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> lapse.watermark() > silenced + TTL.toMillis() + 1_000);
                // ... and the orders speak again, after their deadlines, before any timer could fire them
                fleet.resume(silent);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> lapse.store.inspect(silent).join().values().stream()
                                .allMatch(view -> view.hasNewsSince(silenced + TTL.toMillis())));
                lapse.startTimer();

                await().atMost(Duration.ofSeconds(60))
                        .until(() -> pulled(lapse, expiries(lapse, silent)).size() == silent.size());

                List<TimerExpired> fired = expiries(lapse, silent);
                assertThat(fired)
                        .as("each silence fired once, for its own deadline: a ttl after the last push before it")
                        .hasSize(silent.size())
                        .allSatisfy(expiry -> {
                            assertThat(expiry.attempt()).isEqualTo(1);
                            assertThat(expiry.deadline()).isEqualTo(expiry.lastSeen() + TTL.toMillis());
                            assertThat(expiry.lastSeen()).isBetween(silenced - PUSH_EVERY.toMillis() - 1_000, silenced);
                        });
                assertThat(fired.stream().map(TimerExpired::orderId)).containsExactlyInAnyOrderElementsOf(silent);
                assertThat(lapse.expiries())
                        .as("no live order fired")
                        .noneMatch(expiry -> live.contains(expiry.orderId()));
            }
        }
    }

    /** The distinct expiries of the orders, one per (orderId, deadline, attempt). */
    private static List<TimerExpired> expiries(RunningLapse lapse, List<String> orders) {
        return lapse.expiries().stream()
                .filter(expiry -> orders.contains(expiry.orderId()))
                .collect(Collectors.toMap(
                        expiry -> expiry.orderId() + "/" + expiry.deadline() + "/" + expiry.attempt(),
                        expiry -> expiry,
                        (first, duplicate) -> first))
                .values()
                .stream()
                .toList();
    }

    /** Those of the expiries whose (orderId, deadline, attempt) a pull result answers. */
    private static Set<String> pulled(RunningLapse lapse, List<TimerExpired> expiries) {
        Set<String> answered = lapse.pulls().stream()
                .filter(pull -> pull.expiry() != null)
                .map(LateSilenceTest::key)
                .collect(Collectors.toSet());
        return expiries.stream()
                .map(expiry -> expiry.orderId() + "/" + expiry.deadline() + "/" + expiry.attempt())
                .filter(answered::contains)
                .collect(Collectors.toSet());
    }

    private static String key(PullResult pull) {
        return pull.orderId() + "/" + pull.expiry().deadline() + "/"
                + pull.expiry().attempt();
    }
}
