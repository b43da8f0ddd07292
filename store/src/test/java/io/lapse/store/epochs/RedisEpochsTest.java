package io.lapse.store.epochs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.RedisServer;
import io.lapse.store.RedisConnection;
import io.lapse.store.SharedRedis;
import io.lapse.store.TimerKeys;
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
    void aRebuildUnderWayIsDeclaredUpToItsHorizonUntilItsEpochIsDeclared() {
        Map<Integer, String> generations = epochs.begin("e1").join();

        assertThat(epochs.rebuiltUpTo(generations, 1_000).join()).isEqualTo(ALL);
        assertThat(epochs.rebuiltUpTo(generations, 500).join())
                .as("a rebuilder that got less far leaves the later horizon standing")
                .isEqualTo(ALL);
        assertThat(horizons()).containsOnly("1000");

        assertThat(epochs.finish(generations).join()).isEqualTo(ALL);
        assertThat(horizons()).as("the epoch replaces the horizon").containsOnlyNulls();
    }

    @Test
    void aFlushDuringTheRebuildTakesTheHorizonAndTheRebuildCannotDeclareOneAgain() {
        Map<Integer, String> generations = epochs.begin("e1").join();
        epochs.rebuiltUpTo(generations, 1_000).join();

        connection.async().flushall().toCompletableFuture().join();

        assertThat(epochs.rebuiltUpTo(generations, 2_000).join()).isEmpty();
        assertThat(horizons()).containsOnlyNulls();
    }

    @Test
    void aHorizonDeclaredOnAnotherServerIsFencedAndItsRebuildDeclaresNoEpoch() {
        Map<Integer, String> generations = epochs.begin("e1").join();
        epochs.rebuiltUpTo(generations, 1_000).join();
        // what a promoted replica holds: the horizon, and the run id of the master it was declared on
        connection
                .async()
                .set(KEYS.epochServer(1), "the-old-master")
                .toCompletableFuture()
                .join();

        assertThat(epochs.fence(ALL).join()).isEqualTo(Map.of(1, "up to 1000"));
        assertThat(horizons()).containsExactly("1000", null, "1000");
        assertThat(epochs.rebuiltUpTo(generations, 2_000).join())
                .as("nor a horizon")
                .isEqualTo(Set.of(0, 2));
        assertThat(epochs.finish(generations).join()).isEqualTo(Set.of(0, 2));
        assertThat(epochs.current().join().get(1)).isNull();
    }

    private java.util.List<String> horizons() {
        return ALL.stream()
                .sorted()
                .map(shard -> connection
                        .async()
                        .get(KEYS.epochHorizon(shard))
                        .toCompletableFuture()
                        .join())
                .toList();
    }

    @Test
    void aRestartWithoutPersistenceTakesTheEpochs() {
        epochs.stamp("e1").join();

        server.restart();

        await().until(() -> epochs.current().join().values().stream().allMatch(e -> e == null));
    }
}
