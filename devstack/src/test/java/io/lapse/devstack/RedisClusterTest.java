package io.lapse.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class RedisClusterTest {

    @Test
    void threeMastersReachStateOkAndEachServesItsShareOfTheKeys() {
        try (RedisCluster cluster = RedisCluster.start(3)) {
            assertThat(cluster.nodeUris()).hasSize(3).doesNotHaveDuplicates().startsWith(cluster.uri());
            for (String uri : cluster.nodeUris()) {
                assertThat(clusterInfo(uri))
                        .contains(
                                "cluster_state:ok",
                                "cluster_slots_assigned:16384",
                                "cluster_known_nodes:3",
                                "cluster_size:3");
            }

            RedisClusterClient client = RedisClusterClient.create(cluster.uri());
            try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
                Map<String, String> keyPerMaster = oneKeyPerMaster(connection);
                assertThat(keyPerMaster).hasSize(3);

                keyPerMaster.values().forEach(key -> connection.sync().set(key, "value-of-" + key));
                keyPerMaster
                        .values()
                        .forEach(key -> assertThat(connection.sync().get(key)).isEqualTo("value-of-" + key));
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void closeEndsEveryNodeAndDeletesTheirDirs() {
        RedisCluster cluster = RedisCluster.start(2);

        cluster.close();
        cluster.close();

        assertThat(cluster.nodes()).allSatisfy(node -> {
            assertThat(node.isRunning()).isFalse();
            assertThat(node.dir()).doesNotExist();
        });
    }

    /** Keys chosen by slot, so the test proves every master takes writes, not just the seed node. */
    private static Map<String, String> oneKeyPerMaster(StatefulRedisClusterConnection<String, String> connection) {
        Map<String, String> keyByNodeId = new LinkedHashMap<>();
        for (int i = 0; keyByNodeId.size() < 3 && i < 10_000; i++) {
            String key = "order:" + i;
            RedisClusterNode owner = connection.getPartitions().getPartitionBySlot(SlotHash.getSlot(key));
            keyByNodeId.putIfAbsent(owner.getNodeId(), key);
        }
        return keyByNodeId;
    }

    private static String clusterInfo(String uri) {
        RedisClient client = RedisClient.create(RedisURI.create(uri));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().clusterInfo();
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
