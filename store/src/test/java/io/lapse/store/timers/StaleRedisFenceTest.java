package io.lapse.store.timers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.ConfigSource;
import io.lapse.config.RedisSettings;
import io.lapse.config.TimerSettings;
import io.lapse.devstack.RedisServer;
import io.lapse.event.OrderUpdate;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Redis that serves older data than the epochs vouch for, on real servers: a replica promoted while it lacked the
 * last writes, and a server restarted from an older snapshot. Each keeps the epoch key and the order that finished
 * since its copy; fenced, it fires nothing until the compensator has rebuilt it.
 */
class StaleRedisFenceTest {

    private static final long FAR_FUTURE = Long.MAX_VALUE / 2;
    private static final TimerSettings SETTINGS =
            TimerSettings.from(ConfigSource.defaults().with(Map.of("timer.ttl", "10s", "timer.shards", "4")));
    private static final TimerKeys KEYS = new TimerKeys("fence", SETTINGS.shards());
    private static final String ORDER = "finished-after-the-copy";

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    @Test
    void aReplicaPromotedWhileItLackedTheLastWritesIsFencedAndFiresNothing() {
        RedisServer master = opened(RedisServer.start());
        RedisServer replica =
                opened(RedisServer.start(List.of("--replicaof", "127.0.0.1", Integer.toString(master.port()))));
        RedisConnection onMaster = connect(master);
        RedisConnection onReplica = connect(replica);
        new RedisEpochs(onMaster, KEYS).stamp("e1").join();
        armOverdue(onMaster);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> storeOn(onReplica).watchedCount().join() == 1);

        // the link breaks and the replica is promoted; the old master goes on acknowledging the order's end
        onReplica.async().replicaofNoOne().toCompletableFuture().join();
        storeOn(onMaster)
                .apply(List.of(OrderUpdate.terminal(ORDER, System.currentTimeMillis())))
                .join();

        assertThat(storeOn(onReplica).watchedCount().join())
                .as("the promoted replica still watches the finished order, with every epoch in place")
                .isEqualTo(1);
        assertThat(new RedisEpochs(onReplica, KEYS).current().join().values()).containsOnly("e1");
        assertThat(claimAll(onReplica))
                .as("nothing fires from a server the epochs were not declared on, before any fence too: the timer"
                        + " fences once a second")
                .isEmpty();
        assertThat(fenceAll(onReplica)).as("every shard fenced").hasSize(SETTINGS.shards());
        assertThat(claimAll(onReplica)).as("nothing fires from the stale data").isEmpty();
        assertThat(fenceAll(onMaster))
                .as("the old master's epochs were declared on it")
                .isEmpty();
    }

    @Test
    void aRebuildBegunOnAMasterThatFailedOverDuringItsFirstPassDeclaresNothingOnThePromotedReplica() {
        RedisServer master = opened(RedisServer.start());
        RedisServer replica =
                opened(RedisServer.start(List.of("--replicaof", "127.0.0.1", Integer.toString(master.port()))));
        RedisConnection onMaster = connect(master);
        RedisConnection onReplica = connect(replica);
        Map<Integer, String> generations =
                new RedisEpochs(onMaster, KEYS).begin("e1").join();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> onReplica
                                .async()
                                .exists(KEYS.epoch(0) + ":next")
                                .toCompletableFuture()
                                .join()
                        == 1);

        // the link breaks and the replica is promoted while the rebuild's first pass writes into the old master: the
        // promoted replica lacks those writes, and the rebuild goes on against it
        onReplica.async().replicaofNoOne().toCompletableFuture().join();
        armOverdue(onMaster);

        RedisEpochs onPromoted = new RedisEpochs(onReplica, KEYS);
        assertThat(onPromoted.rebuiltUpTo(generations, FAR_FUTURE).join())
                .as("no shard declared rebuilt up to a horizon over data that lacks the rebuild's writes")
                .isEmpty();
        assertThat(onPromoted.finish(generations).join()).as("nor an epoch").isEmpty();
        assertThat(fenceAll(onReplica))
                .as("the fence takes the rebuild under way away")
                .hasSize(SETTINGS.shards());
        Map<Integer, String> again = onPromoted.begin("e2").join();
        assertThat(again.values())
                .as("the next rebuild starts a generation of its own")
                .containsOnly("e2");
        assertThat(onPromoted.finish(again).join()).hasSize(SETTINGS.shards());
    }

    @Test
    void aServerRestartedFromAnOlderSnapshotIsFencedAndFiresNothing() {
        RedisServer server = opened(RedisServer.start());
        RedisConnection connection = connect(server);
        new RedisEpochs(connection, KEYS).stamp("e1").join();
        armOverdue(connection);
        connection.async().save().toCompletableFuture().join();
        storeOn(connection)
                .apply(List.of(OrderUpdate.terminal(ORDER, System.currentTimeMillis())))
                .join();

        server.restart(); // loads the snapshot taken before the order finished (persistence is otherwise off)

        await().atMost(Duration.ofSeconds(10))
                .ignoreExceptions()
                .until(() -> storeOn(connection).watchedCount().join() == 1);
        assertThat(claimAll(connection))
                .as("nothing fires before the fence either (a chaos run's redis-restart of a master that had been a"
                        + " replica loaded its old snapshot and fired live orders at deadlines 70 s old)")
                .isEmpty();
        assertThat(fenceAll(connection)).hasSize(SETTINGS.shards());
        assertThat(claimAll(connection)).isEmpty();
    }

    @Test
    void anEpochDeclaredOnTheServerServingItStands() {
        RedisConnection connection = connect(opened(RedisServer.start()));
        RedisEpochs epochs = new RedisEpochs(connection, KEYS);
        epochs.begin("e1").thenCompose(epochs::finish).join();
        armOverdue(connection);

        assertThat(fenceAll(connection)).isEmpty();
        assertThat(epochs.current().join().values()).containsOnly("e1");
        assertThat(claimAll(connection)).hasSize(1);
    }

    private void armOverdue(RedisConnection connection) {
        storeOn(connection)
                .apply(List.of(OrderUpdate.active(ORDER, System.currentTimeMillis() - 60_000)))
                .join();
    }

    private static Map<Integer, String> fenceAll(RedisConnection connection) {
        RedisEpochs epochs = new RedisEpochs(connection, KEYS);
        return epochs.fence(epochs.allShards()).join();
    }

    private static List<Claim> claimAll(RedisConnection connection) {
        List<Claim> claims = new ArrayList<>();
        for (int shard = 0; shard < KEYS.shards(); shard++) {
            claims.addAll(storeOn(connection).claim(shard, FAR_FUTURE).join().claims());
        }
        return claims;
    }

    private static TimerStore storeOn(RedisConnection connection) {
        return TimerStore.of(connection, KEYS, SETTINGS);
    }

    private RedisConnection connect(RedisServer server) {
        return opened(RedisConnection.open(new RedisSettings(server.uri(), false, "fence")));
    }

    private <T extends AutoCloseable> T opened(T resource) {
        opened.add(resource);
        return resource;
    }
}
