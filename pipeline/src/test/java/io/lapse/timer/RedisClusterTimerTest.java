package io.lapse.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.KafkaBroker;
import io.lapse.devstack.RedisCluster;
import io.lapse.event.TimerExpired;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Both timer modes on a real three-master Redis Cluster: the shards spread over the masters and all of them fire. */
@Tag("slow")
class RedisClusterTimerTest {

    private static KafkaBroker kafka;
    private static RedisCluster cluster;

    @BeforeAll
    static void startInfrastructure() {
        kafka = KafkaBroker.start();
        cluster = RedisCluster.start(3);
    }

    @AfterAll
    static void stopInfrastructure() {
        cluster.close();
        kafka.close();
    }

    @ParameterizedTest(name = "timer.mode={0}")
    @CsvSource({"zset, TIMER", "ttl, KEYSPACE"})
    void silentOrdersInEveryShardFireOnce(String mode, TimerExpired.Source source) throws Exception {
        try (TimerPipeline pipeline = new TimerPipeline(
                kafka.bootstrapServers(),
                cluster.uri(),
                Map.of("redis.cluster", "true", "timer.mode", mode, "timer.ttl", "2s", "timer.repeat", "1h"))) {
            pipeline.startIngest();
            pipeline.startTimer();
            List<String> orders =
                    IntStream.range(0, 64).mapToObj(i -> "order-" + i).toList();
            Set<Integer> shards = new HashSet<>();
            orders.forEach(id -> {
                pipeline.push(id, null);
                shards.add(pipeline.store.keys().shardOf(id));
            });
            pipeline.flush();
            assertThat(shards)
                    .as("orders cover the shards, which spread over every master")
                    .hasSizeGreaterThan(12);

            await().atMost(Duration.ofSeconds(60))
                    .until(() -> pipeline.expiries().size() >= orders.size());
            await().during(Duration.ofSeconds(1))
                    .until(() -> pipeline.expiries().size() == orders.size());
            assertThat(pipeline.expiries())
                    .extracting(TimerExpired::orderId)
                    .containsExactlyInAnyOrderElementsOf(orders);
            assertThat(pipeline.expiries()).extracting(TimerExpired::source).containsOnly(source);
        }
    }
}
