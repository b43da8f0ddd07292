package io.lapse.devstack;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Turns N empty cluster-enabled redis-server processes into one cluster of N masters, the way
 * {@code redis-cli --cluster create} does, minus replicas: assign slots, give every node its own
 * config epoch, introduce the nodes, then wait until each one sees all 16384 slots covered.
 */
final class ClusterFormation {

    static final int SLOTS = 16_384;

    private ClusterFormation() {}

    static void form(List<RedisServer> nodes, Duration timeout) {
        RedisClient client = RedisClient.create();
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        try {
            for (RedisServer node : nodes) {
                connections.add(client.connect(RedisURI.create(node.uri())));
            }
            int n = nodes.size();
            for (int i = 0; i < n; i++) {
                RedisCommands<String, String> node = connections.get(i).sync();
                // Redis 6.2 (the bundled binary) has no CLUSTER ADDSLOTSRANGE
                node.clusterAddSlots(
                        IntStream.range(i * SLOTS / n, (i + 1) * SLOTS / n).toArray());
                // distinct epochs up front, so no node has to win an epoch collision after meeting
                node.clusterSetConfigEpoch(i + 1);
            }
            for (int i = 1; i < n; i++) {
                // gossip introduces the others to each other; one node meeting everyone is enough
                connections.get(0).sync().clusterMeet("127.0.0.1", nodes.get(i).port());
            }
            awaitStateOk(nodes, connections, timeout);
        } finally {
            connections.forEach(StatefulRedisConnection::close);
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private static void awaitStateOk(
            List<RedisServer> nodes, List<StatefulRedisConnection<String, String>> connections, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<String> notOk = new ArrayList<>();
            for (int i = 0; i < nodes.size(); i++) {
                String info = connections.get(i).sync().clusterInfo();
                if (!info.contains("cluster_state:ok")) {
                    notOk.add(nodes.get(i).uri() + ": " + info.lines().limit(6).toList());
                }
            }
            if (notOk.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Redis cluster not ok within " + timeout + ": " + notOk);
            }
            Sleep.briefly(Duration.ofMillis(50));
        }
    }
}
