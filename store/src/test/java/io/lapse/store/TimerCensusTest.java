package io.lapse.store;

import io.lapse.config.ConfigSource;
import io.lapse.config.RedisSettings;
import io.lapse.config.TimerSettings;
import io.lapse.devstack.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** lapse status's view of the shards, and the audit of manual actions, on a real Redis. */
class TimerCensusTest {

    private static final long TTL = 60_000;

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

    @ParameterizedTest
    @ValueSource(strings = {"zset", "ttl"})
    void countsWatchedAndOverdueTimersPerShardAndNamesTheOldest(String mode) {
        TimerSettings settings = TimerSettings.from(ConfigSource.defaults().with(Map.of("timer.ttl", TTL + "ms",
                "timer.shards", "4", "timer.mode", mode)));
        TimerKeys keys = new TimerKeys("lapse", 4);
        TimerStore store = TimerStore.of(connection, keys, settings);
        long now = System.currentTimeMillis();
        store.apply(List.of(OrderUpdate.active("live-1", now), OrderUpdate.active("live-2", now),
                OrderUpdate.active("late-1", now - TTL - 30_000), OrderUpdate.active("late-2", now - TTL - 90_000),
                OrderUpdate.terminal("done", now))).join();
        TimerCensus census = new TimerCensus(connection, keys, settings);

        List<TimerCensus.ShardCount> shards = census.count(census.redisNow().join(), Duration.ofSeconds(5)).join();

        assertThat(shards).hasSize(4);
        assertThat(shards.stream().mapToLong(TimerCensus.ShardCount::watched).sum()).isEqualTo(4);
        assertThat(shards.stream().mapToLong(TimerCensus.ShardCount::overdue).sum()).isEqualTo(2);
        TimerCensus.ShardCount oldestShard = shards.get(keys.shardOf("late-2"));
        assertThat(oldestShard.oldest()).isEqualTo(new TimerCensus.Overdue("late-2", now - 90_000));
        assertThat(shards).allSatisfy(s -> assertThat(s.epoch()).isNull());
    }

    @Test
    void theAuditLogKeepsWhoDidWhatToWhichOrderNewestFirst() {
        AuditLog audit = new AuditLog(connection, new TimerKeys("lapse", 4));
        audit.record(new AuditLog.Entry(0, "fire", "o-1", "", "alice")).join();
        audit.record(new AuditLog.Entry(0, "cancel", "o-2", "customer called", "bob")).join();
        audit.record(new AuditLog.Entry(0, "cancel", "o-1", "stuck", "alice")).join();

        List<AuditLog.Entry> entries = audit.of("o-1").join();

        assertThat(entries).extracting(AuditLog.Entry::action).containsExactly("cancel", "fire");
        assertThat(entries.get(0).reason()).isEqualTo("stuck");
        assertThat(entries.get(0).at()).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(5_000L));
    }
}
