package io.lapse.store;

import io.lapse.config.ConfigSource;
import io.lapse.config.RedisSettings;
import io.lapse.config.TimerSettings;
import io.lapse.devstack.RedisServer;
import io.lapse.event.TimerExpired;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** lapse fire's claim and acknowledgement, in both timer modes, on a real Redis. */
class ManualFiringTest {

    private static RedisServer server;
    private static RedisConnection connection;

    @BeforeAll
    static void startRedis() {
        server = RedisServer.start();
        connection = RedisConnection.open(new RedisSettings(server.uri(), false, "lapse"));
    }

    @AfterAll
    static void stopRedis() {
        connection.close();
        server.close();
    }

    @BeforeEach
    void emptyRedis() {
        connection.async().flushall().toCompletableFuture().join();
    }

    private static TimerSettings settings(String mode) {
        return TimerSettings.from(ConfigSource.defaults().with(Map.of("timer.ttl", "60s", "timer.max-attempts", "2",
                "timer.shards", "4", "timer.mode", mode)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"zset", "ttl"})
    void aWatchedOrderFiresNowAsManualAndCountsAsAnAttempt(String mode) {
        TimerSettings settings = settings(mode);
        TimerKeys keys = new TimerKeys("lapse", 4);
        TimerStore store = TimerStore.of(connection, keys, settings);
        ManualFiring firing = new ManualFiring(connection, keys, settings);
        long lastSeen = System.currentTimeMillis();
        store.apply(List.of(OrderUpdate.active("o-1", lastSeen))).join();

        ManualFiring.Result first = firing.claim("o-1").join();

        assertThat(first.outcome()).isEqualTo(ManualFiring.Outcome.CLAIMED);
        Claim claim = first.claim();
        assertThat(claim.source()).isEqualTo(TimerExpired.Source.MANUAL);
        assertThat(claim.lastSeen()).isEqualTo(lastSeen);
        assertThat(claim.attempt()).isEqualTo(1);
        assertThat(claim.deadline()).as("due now, not at lastSeen + ttl").isEqualTo(claim.firedAt())
                .isLessThan(lastSeen + 60_000);
        assertThat(firing.claim("o-1").join().outcome()).as("while its publish is in flight")
                .isEqualTo(ManualFiring.Outcome.LEASED);

        assertThat(firing.acknowledge(claim).join()).isTrue();
        OrderView view = store.inspect(List.of("o-1")).join().get("o-1");
        assertThat(view.phase()).isEqualTo(OrderView.Phase.FIRED);
        assertThat(view.attempt()).isEqualTo(1);

        Claim second = firing.claim("o-1").join().claim();
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(second.finalAttempt()).isTrue();
        firing.acknowledge(second).join();
        assertThat(store.inspect(List.of("o-1")).join().get("o-1").phase()).isEqualTo(OrderView.Phase.GIVEN_UP);

        Claim onceMore = firing.claim("o-1").join().claim();
        assertThat(onceMore.attempt()).as("a given-up order gets its final attempt again").isEqualTo(2);
        assertThat(onceMore.deadline()).isGreaterThan(second.deadline());
        assertThat(firing.acknowledge(onceMore).join()).isTrue();
        assertThat(store.inspect(List.of("o-1")).join().get("o-1").phase()).isEqualTo(OrderView.Phase.GIVEN_UP);
    }

    @ParameterizedTest
    @ValueSource(strings = {"zset", "ttl"})
    void finishedAndUnknownOrdersAreNotFired(String mode) {
        TimerSettings settings = settings(mode);
        TimerKeys keys = new TimerKeys("lapse", 4);
        TimerStore.of(connection, keys, settings)
                .apply(List.of(OrderUpdate.terminal("done", System.currentTimeMillis()))).join();
        ManualFiring firing = new ManualFiring(connection, keys, settings);

        assertThat(firing.claim("done").join().outcome()).isEqualTo(ManualFiring.Outcome.FINISHED);
        assertThat(firing.claim("never-seen").join().outcome()).isEqualTo(ManualFiring.Outcome.UNKNOWN);
    }
}
