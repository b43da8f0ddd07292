package io.lapse.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.DevStackExtension;
import io.lapse.devstack.RedisServer;
import io.lapse.event.TimerExpired;
import io.lapse.store.epochs.RedisEpochs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** timer.mode=ttl end to end on a real Redis: keyspace notifications fire expiries, also after Redis restarts. */
@Tag("slow")
class TtlModeTimerTest {

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.kafkaAndRedis();

    @Test
    void aSilentOrderFiresFromItsKeyspaceNotificationAndAgainAfterRedisRestarted() throws Exception {
        try (TimerPipeline pipeline = new TimerPipeline(
                stack.bootstrapServers(),
                stack.redisUri(),
                Map.of("timer.mode", "ttl", "timer.ttl", "3s", "timer.repeat", "1h"))) {
            pipeline.startIngest();
            pipeline.startTimer();

            pipeline.push("before-restart", null);
            pipeline.flush();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> pipeline.expiries().size() == 1);

            stack.redis().stop();
            stack.redis().restart();
            // what the compensator's rebuild does once Redis is back empty: nothing fires from it before
            new RedisEpochs(pipeline.redis, pipeline.store.keys())
                    .stamp("rebuilt")
                    .join();
            pipeline.push("after-restart", null);
            pipeline.flush();

            await().atMost(Duration.ofSeconds(60))
                    .until(() -> pipeline.expiries().size() == 2);
            assertThat(pipeline.expiries())
                    .extracting(TimerExpired::orderId)
                    .containsExactly("before-restart", "after-restart");
            assertThat(pipeline.expiries()).extracting(TimerExpired::source).containsOnly(TimerExpired.Source.KEYSPACE);
        }
    }

    @Test
    void whereRedisRefusesConfigAndNotificationsAreOffTheTimerIsNotReadyAndSaysWhatToConfigure() throws Exception {
        try (RedisServer managed = RedisServer.start(List.of("--rename-command", "CONFIG", ""));
                TimerPipeline pipeline = new TimerPipeline(
                        stack.bootstrapServers(), managed.uri(), Map.of("timer.mode", "ttl", "timer.ttl", "2s"))) {
            pipeline.startIngest();
            TimerService timer = pipeline.startTimer();

            await().atMost(Duration.ofSeconds(30))
                    .until(() -> timer.unreadyReason().isPresent());

            assertThat(timer.isReady()).isFalse();
            assertThat(timer.unreadyReason().orElseThrow())
                    .contains(
                            "Redis refuses CONFIG", "Set notify-keyspace-events to include E and x", "timer.mode=zset");
        }
    }

    @Test
    void whereRedisRefusesConfigButNotificationsAreOnASilentOrderFiresAndTheTimerIsReady() throws Exception {
        try (RedisServer managed =
                        RedisServer.start(List.of("--rename-command", "CONFIG", "", "--notify-keyspace-events", "Ex"));
                TimerPipeline pipeline = new TimerPipeline(
                        stack.bootstrapServers(),
                        managed.uri(),
                        Map.of("timer.mode", "ttl", "timer.ttl", "2s", "timer.repeat", "1h"))) {
            pipeline.startIngest();
            TimerService timer = pipeline.startTimer();
            new RedisEpochs(pipeline.redis, pipeline.store.keys())
                    .stamp("managed")
                    .join();

            pipeline.push("on-managed-redis", null);
            pipeline.flush();

            await().atMost(Duration.ofSeconds(30))
                    .until(() -> pipeline.expiries().size() == 1);
            await().atMost(Duration.ofSeconds(10)).until(timer::isReady);
            assertThat(timer.unreadyReason()).isEmpty();
        }
    }
}
