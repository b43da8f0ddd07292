package io.lapse.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class RedisServerTest {

    @Test
    void aFreshServerAnswersPingAndStoresValues() {
        try (RedisServer redis = RedisServer.start()) {
            assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + redis.port());
            withRedis(redis, commands -> {
                assertThat(commands.ping()).isEqualTo("PONG");
                commands.set("order:1", "charging");
                assertThat(commands.get("order:1")).isEqualTo("charging");
            });
        }
    }

    @Test
    void aKilledServerRestartsOnTheSamePortWithItsAppendOnlyFile() {
        try (RedisServer redis = RedisServer.start(List.of("--appendonly", "yes", "--appendfsync", "always"))) {
            int port = redis.port();
            withRedis(redis, commands -> commands.set("order:1", "charging"));

            redis.kill();
            assertThat(redis.isRunning()).isFalse();
            assertThat(redis.dir()).isDirectory();

            redis.restart();
            assertThat(redis.port()).isEqualTo(port);
            withRedis(redis, commands -> assertThat(commands.get("order:1")).isEqualTo("charging"));
        }
    }

    @Test
    void closeEndsTheProcessDeletesTheDirAndCanBeRepeated() {
        RedisServer redis = RedisServer.start();
        long pid = redis.pid();

        redis.close();
        redis.close();

        assertThat(redis.dir()).doesNotExist();
        await().atMost(Duration.ofSeconds(5))
                .until(() ->
                        ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty());
        assertThat(redis.isRunning()).isFalse();
    }

    @Test
    void twoServersGetDifferentPortsAndDirs() {
        try (RedisServer first = RedisServer.start();
                RedisServer second = RedisServer.start()) {
            assertThat(first.port()).isNotEqualTo(second.port());
            assertThat(first.dir()).isNotEqualTo(second.dir());
            assertThat(Files.isDirectory(second.dir())).isTrue();
        }
    }

    private static void withRedis(RedisServer redis, Consumer<RedisCommands<String, String>> action) {
        RedisClient client = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            action.accept(connection.sync());
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
