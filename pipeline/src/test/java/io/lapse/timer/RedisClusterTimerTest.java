package io.lapse.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.KafkaBroker;
import io.lapse.devstack.RedisCluster;
import io.lapse.event.TimerExpired;
import io.lapse.store.TimerKeys;
import io.lettuce.core.RedisClient;
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

/**
 * Both timer modes on real Redis Clusters of three and six masters: each master holds its share of the shards and
 * every shard fires.
 */
@Tag("slow")
class RedisClusterTimerTest {

    private static KafkaBroker kafka;
    private static Map<Integer, RedisCluster> clusters;

    @BeforeAll
    static void startInfrastructure() {
        kafka = KafkaBroker.start();
        clusters = Map.of(3, RedisCluster.start(3), 6, RedisCluster.start(6));
    }

    @AfterAll
    static void stopInfrastructure() {
        clusters.values().forEach(RedisCluster::close);
        kafka.close();
    }

    @ParameterizedTest(name = "{0} masters, timer.mode={1}")
    @CsvSource({"3, zset, TIMER", "3, ttl, KEYSPACE", "6, zset, TIMER"})
    void eachMasterHoldsItsShareOfTheShardsAndSilentOrdersInEveryShardFireOnce(
            int masters, String mode, TimerExpired.Source source) throws Exception {
        RedisCluster cluster = clusters.get(masters);
        try (TimerPipeline pipeline = new TimerPipeline(
                kafka.bootstrapServers(),
                cluster.uri(),
                Map.of("redis.cluster", "true", "timer.mode", mode, "timer.ttl", "2s", "timer.repeat", "1h"))) {
            TimerKeys keys = pipeline.store.keys();
            assertThat(shardsByNode(cluster, keys))
                    .as("shards of %d whose keys each of %d masters holds", keys.shards(), masters)
                    .allSatisfy(held -> assertThat(held)
                            .isBetween(keys.shards() / masters, (keys.shards() + masters - 1) / masters))
                    .hasSize(masters)
                    .satisfies(held -> assertThat(
                                    held.stream().mapToInt(Integer::intValue).sum())
                            .isEqualTo(keys.shards()));

            pipeline.startIngest();
            pipeline.startTimer();
            List<String> orders =
                    IntStream.range(0, 64).mapToObj(i -> "order-" + i).toList();
            Set<Integer> shards = new HashSet<>();
            orders.forEach(id -> {
                pipeline.push(id, null);
                shards.add(keys.shardOf(id));
            });
            pipeline.flush();
            assertThat(shards).as("orders cover the shards").hasSizeGreaterThan(12);

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

    /**
     * How many shards' epoch keys (every shard has one, stamped by the pipeline) each node holds, asked of each node
     * itself rather than derived from the slots.
     */
    private static List<Integer> shardsByNode(RedisCluster cluster, TimerKeys keys) {
        return cluster.nodeUris().stream()
                .map(uri -> {
                    RedisClient client = RedisClient.create(uri);
                    try (var node = client.connect()) {
                        Set<String> held = new HashSet<>(node.sync().keys(keys.prefix() + ":*"));
                        return (int) IntStream.range(0, keys.shards())
                                .filter(shard -> held.contains(keys.epoch(shard)))
                                .count();
                    } finally {
                        client.shutdown();
                    }
                })
                .toList();
    }
}
