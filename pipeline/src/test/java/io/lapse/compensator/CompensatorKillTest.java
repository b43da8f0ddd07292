package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.compensator.fold.CaughtUp;
import io.lapse.compensator.mirror.Fired;
import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.MirrorSource;
import io.lapse.compensator.mirror.OrderState;
import io.lapse.devstack.DevStack;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import io.lapse.pipeline.ServiceProcess;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.TimerImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compensator killed with SIGKILL in the middle of its work, and started again on the same state directory: its
 * store comes back from the changelog with every order as it was, and the rebuild after a flush is still exact.
 */
@ExtendWith(SharedStack.class)
@Tag("extended")
class CompensatorKillTest {

    private static final Duration TTL = Duration.ofSeconds(90);
    private static final Duration REPEAT = Duration.ofSeconds(60);
    private static final Duration GENEROUS = Duration.ofSeconds(90);

    @TempDir
    Path stateDir;

    @Test
    void afterAKillTheStoreComesBackFromTheChangelogAndTheNextRebuildIsExact(DevStack stack) throws Exception {
        // a short session, so that the killed instance's tasks move to the new one within seconds
        Map<String, String> settings = Map.of(
                "timer.ttl",
                "90s",
                "timer.repeat",
                "60s",
                "timer.max-attempts",
                "3",
                "kafka.session.timeout.ms",
                "6000",
                "compensator.scan-interval",
                "2s",
                "compensator.state-dir",
                stateDir.toString());
        try (RunningLapse lapse = new RunningLapse(stack.bootstrapServers(), stack.redisUri(), settings)) {
            KafkaProducer<byte[], byte[]> producer = lapse.producer();
            Process killed =
                    ServiceProcess.start("compensator", lapse.settings, Files.createTempFile("compensator", ".log"));
            Map<String, List<MirrorInput>> inputs = new HashMap<>();
            long now = System.currentTimeMillis();
            try {
                await().atMost(GENEROUS).until(lapse::hasEveryEpoch);
                for (int i = 0; i < 200; i++) {
                    String orderId = "order-" + i;
                    long seen = now - 300_000 + i;
                    send(
                            producer,
                            lapse,
                            inputs,
                            orderId,
                            i % 5 == 3
                                    ? new MirrorInput.Status(io.lapse.event.OrderUpdate.terminal(orderId, seen))
                                    : new MirrorInput.Status(io.lapse.event.OrderUpdate.active(orderId, seen)));
                }
                producer.flush();
                awaitCaughtUp(lapse);
                for (int i = 0; i < 200; i++) {
                    String orderId = "order-" + i;
                    long seen = now - 300_000 + i;
                    switch (i % 5) {
                        case 1 -> fire(producer, lapse, inputs, orderId, seen, 2);
                        case 2 -> fire(producer, lapse, inputs, orderId, seen, 3);
                        case 4 ->
                            send(
                                    producer,
                                    lapse,
                                    inputs,
                                    orderId,
                                    new MirrorInput.Status(io.lapse.event.OrderUpdate.gone(orderId, now - 1_000)));
                        default -> {}
                    }
                }
                producer.flush(); // and killed before it may have committed any of it
            } finally {
                killed.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }

            CompensatorService restarted = lapse.startCompensator(stateDir);
            Map<String, OrderState> expected = new HashMap<>();
            inputs.forEach((orderId, list) -> {
                OrderState state = null;
                for (MirrorInput input : list) {
                    state = input.applyTo(state);
                }
                expected.put(orderId, state);
            });
            await().atMost(GENEROUS)
                    .untilAsserted(() -> assertThat(mirrored(restarted)).isEqualTo(expected));

            lapse.redis.async().flushall().toCompletableFuture().join();

            await().atMost(GENEROUS).untilAsserted(() -> {
                assertThat(lapse.epochs.current().join().values()).doesNotContainNull();
                Map<String, OrderView> redis =
                        lapse.store.inspect(expected.keySet()).join();
                expected.forEach((orderId, state) -> assertThat(redis.get(orderId))
                        .as(orderId)
                        .isEqualTo(view(state.image(orderId, TTL, REPEAT), orderId)));
            });
        }
    }

    private static void send(
            KafkaProducer<byte[], byte[]> producer,
            RunningLapse lapse,
            Map<String, List<MirrorInput>> inputs,
            String orderId,
            MirrorInput.Status status) {
        io.lapse.event.OrderUpdate update = status.update();
        inputs.computeIfAbsent(orderId, id -> new ArrayList<>()).add(status);
        if (update.kind() == io.lapse.event.OrderUpdate.Kind.GONE) {
            TimerExpired expiry = new TimerExpired(
                    orderId, update.eventTime() - 1, 1, 1, update.eventTime() - 1, TimerExpired.Source.TIMER, false);
            producer.send(new ProducerRecord<>(
                    lapse.config.topics().pulled(),
                    key(orderId),
                    JsonCodec.PULL_RESULT.encode(PullResult.notFound(expiry, update.eventTime()))));
            return;
        }
        String name = update.kind() == io.lapse.event.OrderUpdate.Kind.TERMINAL ? "FINISHED" : "CHARGING";
        producer.send(new ProducerRecord<>(
                lapse.config.topics().push(),
                key(orderId),
                JsonCodec.STATUS_PUSH.encode(new StatusPush(orderId, name, update.eventTime()))));
    }

    /** Publishes the attempts 1 to {@code attempts} of an order as the timer would. */
    private static void fire(
            KafkaProducer<byte[], byte[]> producer,
            RunningLapse lapse,
            Map<String, List<MirrorInput>> inputs,
            String orderId,
            long lastSeen,
            int attempts) {
        for (int attempt = 1; attempt <= attempts; attempt++) {
            long firedAt = lastSeen + TTL.toMillis() + (attempt - 1) * REPEAT.toMillis() + 3;
            TimerExpired expiry = new TimerExpired(
                    orderId, firedAt - 3, lastSeen, attempt, firedAt, TimerExpired.Source.TIMER, attempt == 3);
            inputs.get(orderId).add(Fired.of(expiry));
            producer.send(new ProducerRecord<>(
                    lapse.config.topics().expired(), key(orderId), JsonCodec.TIMER_EXPIRED.encode(expiry)));
        }
    }

    private static byte[] key(String orderId) {
        return orderId.getBytes(StandardCharsets.UTF_8);
    }

    private static void awaitCaughtUp(RunningLapse lapse) throws Exception {
        try (var admin = lapse.clients.admin()) {
            // the compensator's push folder hands its pushes over every scan interval
            assertThat(CaughtUp.of(admin, lapse.config, Clock.systemUTC()).await(GENEROUS))
                    .isZero();
        }
    }

    private static Map<String, OrderState> mirrored(CompensatorService compensator) {
        Map<String, OrderState> mirror = new HashMap<>();
        compensator.localMirror().read(mirror::putAll, MirrorSource.Progress.NONE);
        return mirror;
    }

    /** What inspecting Redis must show for the image, as rebuild.lua writes it. */
    private static OrderView view(TimerImage image, String orderId) {
        if (image == null) {
            return new OrderView(
                    orderId,
                    OrderView.Phase.UNKNOWN,
                    java.util.OptionalLong.empty(),
                    0,
                    java.util.OptionalLong.empty());
        }
        return switch (image.phase()) {
            case ENDED ->
                new OrderView(
                        orderId,
                        OrderView.Phase.ENDED,
                        java.util.OptionalLong.empty(),
                        0,
                        java.util.OptionalLong.empty());
            case GIVEN_UP ->
                new OrderView(
                        orderId,
                        OrderView.Phase.GIVEN_UP,
                        java.util.OptionalLong.of(image.lastSeen()),
                        image.fired(),
                        java.util.OptionalLong.empty());
            case WATCHED ->
                new OrderView(
                        orderId,
                        image.fired() == 0 ? OrderView.Phase.RECOVERED : OrderView.Phase.FIRED,
                        java.util.OptionalLong.of(image.lastSeen()),
                        image.fired(),
                        java.util.OptionalLong.of(image.at()));
        };
    }
}
