package io.lapse.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.RedisServer;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The epoch marker: written only when a rebuild completes, and gone whenever Redis loses its data. */
@ExtendWith(SharedRedis.class)
class RedisEpochsTest {

    private static final TimerKeys KEYS = new TimerKeys("lapse", 3);
    private static final Set<Integer> ALL = Set.of(0, 1, 2);

    private static RedisServer server;
    private static RedisConnection connection;

    private final RedisEpochs epochs = new RedisEpochs(connection, KEYS);

    @BeforeAll
    static void connect(RedisServer sharedServer, RedisConnection shared) {
        server = sharedServer;
        connection = shared;
    }

    @BeforeEach
    void emptyRedis() {
        connection.async().flushall().toCompletableFuture().join();
    }

    @Test
    void aShardHasAnEpochOnlyOnceItsRebuildIsFinished() {
        assertThat(epochs.current().join()).containsValues((String) null).hasSize(3);

        Map<Integer, String> generations = epochs.begin("e1").join();
        assertThat(epochs.current().join().values()).containsOnlyNulls();

        assertThat(epochs.finish(generations).join()).isEqualTo(ALL);
        assertThat(epochs.current().join()).isEqualTo(Map.of(0, "e1", 1, "e1", 2, "e1"));
    }

    @Test
    void aRebuildDuringWhichRedisLostItsDataDeclaresNothing() {
        Map<Integer, String> generations = epochs.begin("e1").join();

        connection.async().flushall().toCompletableFuture().join();

        assertThat(epochs.finish(generations).join()).isEmpty();
        assertThat(epochs.current().join().values()).containsOnlyNulls();
    }

    @Test
    void rebuildersWorkingAtTheSameTimeShareOneGeneration() {
        Map<Integer, String> first = epochs.begin("e1").join();
        Map<Integer, String> second = epochs.begin("e2").join();

        assertThat(second).isEqualTo(first);
        assertThat(epochs.finish(second).join()).isEqualTo(ALL);
        assertThat(epochs.finish(first).join())
                .as("the other one finds its work declared")
                .isEqualTo(ALL);
        assertThat(epochs.current().join().values()).containsOnly("e1");
    }

    @Test
    void aRestartWithoutPersistenceTakesTheEpochs() {
        epochs.stamp("e1").join();

        server.restart();

        await().until(() -> epochs.current().join().values().stream().allMatch(e -> e == null));
    }
}
