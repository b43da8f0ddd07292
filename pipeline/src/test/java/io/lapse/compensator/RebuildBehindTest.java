package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.compensator.mirror.LocalMirror;
import io.lapse.compensator.mirror.MirrorWriter;
import io.lapse.compensator.rebuild.CompensatorMetrics;
import io.lapse.compensator.rebuild.RebuildOnLoss;
import io.lapse.compensator.rebuild.RebuildResult;
import io.lapse.devstack.DevStack;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.store.TimerKeys;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.TimerRebuild;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compensator was down when Redis lost its data: an order finished meanwhile, and the mirror has not read it. A
 * rebuild then must not arm that order again or declare the epoch, from which the timer would fire it.
 */
@ExtendWith(SharedStack.class)
@Tag("extended")
class RebuildBehindTest {

    @TempDir
    Path stateDir;

    @Test
    void aRebuildFromAMirrorBehindItsTopicsWritesNothingAndDeclaresNoEpochUntilItCaughtUp(DevStack stack)
            throws Exception {
        try (RunningLapse lapse = new RunningLapse(stack.bootstrapServers(), stack.redisUri(), Map.of())) {
            CompensatorService compensator = lapse.startCompensator(stateDir);
            KafkaProducer<byte[], byte[]> producer = lapse.producer();
            long seen = System.currentTimeMillis() - 120_000; // past the default ttl: due at once when armed
            push(lapse, producer, new StatusPush("a", "CHARGING", seen));
            await().atMost(Duration.ofSeconds(60))
                    .until(() ->
                            lapse.store.inspect(List.of("a")).join().get("a").phase() != OrderView.Phase.UNKNOWN);
            compensator.close();
            push(lapse, producer, new StatusPush("a", "FINISHED", seen + 1_000));
            lapse.redis.async().flushall().toCompletableFuture().join();

            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            RebuildResult result;
            try (Admin admin = lapse.clients.admin();
                    RebuildOnLoss rebuild = rebuildOnLoss(lapse, admin, compensator.localMirror(), registry)) {
                result = rebuild.run("no shard of Redis has an epoch");
            }

            assertThat(lapse.store.inspect(List.of("a")).join().get("a").phase())
                    .as("order a finished while the compensator was down: the rebuild must not arm it again")
                    .isEqualTo(OrderView.Phase.UNKNOWN);
            assertThat(lapse.epochs.current().join().values()).containsOnlyNulls();
            assertThat(result.postponed()).isTrue();
            assertThat(result.behind()).isPositive();
            assertThat(registry.get(CompensatorMetrics.REBUILD_BEHIND).gauge().value())
                    .isEqualTo(result.behind());

            lapse.startCompensator(stateDir);
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() ->
                            assertThat(lapse.epochs.current().join().values()).doesNotContainNull());
            assertThat(lapse.store.inspect(List.of("a")).join().get("a").phase())
                    .as("once caught up, the rebuild writes the tombstone the mirror now holds")
                    .isEqualTo(OrderView.Phase.ENDED);
        }
    }

    private static void push(RunningLapse lapse, KafkaProducer<byte[], byte[]> producer, StatusPush status)
            throws Exception {
        producer.send(new ProducerRecord<>(
                        lapse.config.topics().push(),
                        status.orderId().getBytes(StandardCharsets.UTF_8),
                        JsonCodec.STATUS_PUSH.encode(status)))
                .get();
    }

    private static RebuildOnLoss rebuildOnLoss(
            RunningLapse lapse, Admin admin, LocalMirror local, SimpleMeterRegistry registry) {
        TimerKeys keys = new TimerKeys(
                lapse.config.redis().keyPrefix(), lapse.config.timer().shards());
        CompensatorMetrics metrics = new CompensatorMetrics(registry, Clock.systemUTC());
        return new RebuildOnLoss(
                lapse.config,
                lapse.clients,
                admin,
                local,
                lapse.epochs,
                () -> new MirrorWriter(
                        new TimerRebuild(lapse.redis, keys, lapse.config.timer()),
                        lapse.config.timer(),
                        false,
                        metrics::written),
                metrics,
                () -> false,
                () -> {}, // no push folder runs: the compensator is down
                Duration.ofSeconds(1),
                Clock.systemUTC());
    }
}
