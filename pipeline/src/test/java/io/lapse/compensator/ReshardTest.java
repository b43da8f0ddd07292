package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.DevStack;
import io.lapse.event.TimerExpired;
import io.lapse.store.TimerKeys;
import io.lapse.store.timers.OrderView;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The supported change of {@code timer.shards}: every service stops, the setting changes, every service starts again.
 * Redis still holds the old layout, overdue for every order, since nothing ingested while the services were down; the
 * new layout starts without epochs, so the compensator rebuilds every timer into it, and nothing may fire from the old
 * one.
 */
@ExtendWith(SharedStack.class)
@Tag("extended")
class ReshardTest {

    private static final Duration TTL = Duration.ofSeconds(6);
    private static final Duration PUSH_EVERY = Duration.ofSeconds(1);
    private static final Duration GENEROUS = Duration.ofSeconds(60);

    @TempDir
    Path stateDir;

    @Test
    void afterARestartWithTwiceTheShardsEverySilentOrderFiresOnceAndNoOtherOrderFires(DevStack stack) throws Exception {
        String name = "reshard-" + System.nanoTime() % 100_000;
        try (FleetUpstream upstream = FleetUpstream.start()) {
            RunningLapse before =
                    new RunningLapse(stack.bootstrapServers(), stack.redisUri(), name, settings(upstream, 16));
            KafkaProducer<byte[], byte[]> producer = before.clients.producer("reshard-fleet", Map.of());
            try (producer;
                    Fleet fleet = new Fleet(producer, before.config.topics().push(), upstream, 200)) {
                List<String> orders = fleet.orders();
                List<String> finished = orders.subList(0, 20);
                List<String> silent = orders.subList(20, 60);
                List<String> live = orders.subList(60, 200);
                try (before) {
                    before.startPipeline().startCompensator(stateDir);
                    await().atMost(GENEROUS).until(() -> before.compensator().isReady() && before.hasEveryEpoch());
                    fleet.start(PUSH_EVERY);
                    await().atMost(GENEROUS).until(() -> allIn(before, orders, OrderView.Phase.ARMED));
                    fleet.finish(finished);
                    await().atMost(GENEROUS).until(() -> allIn(before, finished, OrderView.Phase.ENDED));
                    fleet.silence(silent);
                }
                // down for longer than a ttl: every order of the old layout is overdue, the live ones included
                Thread.sleep(TTL.plusSeconds(2).toMillis());
                TimerKeys old = new TimerKeys(before.config.redis().keyPrefix(), 16);

                long restarted = System.currentTimeMillis();
                try (RunningLapse after =
                        new RunningLapse(stack.bootstrapServers(), stack.redisUri(), name, settings(upstream, 32))) {
                    after.startPipeline().startCompensator(stateDir);
                    await().atMost(GENEROUS)
                            .untilAsserted(() -> assertThat(firstExpiries(after.expiries()))
                                    .containsKeys(silent.toArray(String[]::new)));
                    await().atMost(GENEROUS).until(after::hasEveryEpoch);
                    // the live orders' keys in the old layout would have fired by now if anything read them
                    await().during(TTL.plusSeconds(1))
                            .atMost(TTL.plusSeconds(15))
                            .untilAsserted(() -> assertThat(after.expiries())
                                    .extracting(TimerExpired::orderId)
                                    .doesNotContainAnyElementsOf(live)
                                    .doesNotContainAnyElementsOf(finished));
                    assertThat(after.expiries())
                            .extracting(TimerExpired::orderId)
                            .as("each silent order fires once, before or after the restart")
                            .doesNotHaveDuplicates()
                            .containsExactlyInAnyOrderElementsOf(silent);
                    assertThat(after.expiries())
                            .filteredOn(e -> e.firedAt() >= restarted)
                            .as("silent orders fired after the restart, by the rebuild into the new layout")
                            .isNotEmpty()
                            .extracting(TimerExpired::source)
                            .containsOnly(TimerExpired.Source.COMPENSATOR);
                    assertThat(IntStream.range(0, old.shards())
                                    .mapToLong(shard -> after.redis
                                            .async()
                                            .zcard(old.due(shard))
                                            .toCompletableFuture()
                                            .join())
                                    .sum())
                            .as("the old layout is still in Redis, overdue, and ignored")
                            .isGreaterThanOrEqualTo(live.size());
                }
            }
        }
    }

    @Test
    void aTimerWithFewerShardsThanTheCoordinationTopicRefusesToStartAndNamesTheProcedure(DevStack stack)
            throws Exception {
        String name = "unshard-" + System.nanoTime() % 100_000;
        try (FleetUpstream upstream = FleetUpstream.start()) {
            try (RunningLapse wider =
                    new RunningLapse(stack.bootstrapServers(), stack.redisUri(), name, settings(upstream, 16))) {
                wider.startPipeline();
            }
            try (RunningLapse narrower =
                    new RunningLapse(stack.bootstrapServers(), stack.redisUri(), name, settings(upstream, 8))) {
                assertThatThrownBy(narrower::startPipeline)
                        .hasMessageContaining("has 16 partitions but 8 are configured (timer.shards)")
                        .hasMessageContaining("delete the topic");
            }
        }
    }

    private static Map<String, String> settings(FleetUpstream upstream, int shards) {
        return Map.of(
                "timer.shards",
                Integer.toString(shards),
                "timer.ttl",
                TTL.toMillis() + "ms",
                "timer.repeat",
                "1h",
                "upstream.base-url",
                upstream.baseUrl());
    }

    private static boolean allIn(RunningLapse lapse, List<String> orders, OrderView.Phase phase) {
        return lapse.store.inspect(orders).join().values().stream().allMatch(view -> view.phase() == phase);
    }

    private static Map<String, TimerExpired> firstExpiries(List<TimerExpired> expiries) {
        Map<String, TimerExpired> first = new HashMap<>();
        expiries.forEach(e -> first.putIfAbsent(e.orderId(), e));
        return first;
    }
}
