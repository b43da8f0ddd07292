package io.lapse.store;

import io.lapse.config.RedisSettings;
import io.lapse.devstack.DevStackExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class WatermarksTest {

    @RegisterExtension
    static final DevStackExtension server = DevStackExtension.redisOnly();
    private static RedisConnection connection;

    @BeforeAll
    static void startRedis() {
        connection = RedisConnection.open(new RedisSettings(server.redisUri(), false, "lapse"));
    }

    @AfterAll
    static void stopRedis() {
        connection.close();
    }

    @Test
    void theWatermarkIsTheLowestPartitionsAndAbsentUntilIngestReportsOne() {
        Watermarks marks = new Watermarks(connection, new TimerKeys("wm-test", 16));
        assertThat(marks.low().join()).isEmpty();

        marks.report(Map.of("push/0", 1_000L, "push/1", 5_000L)).join();
        marks.report(Map.of("pulled/0", 3_000L)).join();
        assertThat(marks.low().join()).hasValue(1_000L);

        marks.report(Map.of("push/0", 7_000L)).join();
        assertThat(marks.low().join()).hasValue(3_000L);

        marks.forget("pulled/0").join();
        assertThat(marks.low().join()).hasValue(5_000L);
    }
}
