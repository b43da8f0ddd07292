package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.compensator.fold.CaughtUp;
import io.lapse.compensator.mirror.MirrorWriter;
import io.lapse.compensator.rebuild.CompensatorMetrics;
import io.lapse.compensator.scan.DriftScan;
import io.lapse.devstack.DevStack;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import io.lapse.store.TimerKeys;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.TimerRebuild;
import io.lapse.store.watermarks.Watermarks;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cause of the live order a randomized run fired right after both compensators' drift scans wrote back what Redis
 * had lost: a scan reads its mirror, then an order pushes once more and ingest arms it, then Redis loses that arm (its
 * due sets deleted, epochs in place), and only then does the scan compare: Redis holds less than the mirror's image,
 * older than the push Redis lost, and writing it back arms the order at a deadline its push had moved. The test holds
 * a scan between its read and its write (through what it asks of the loss watch for each batch) to make that happen
 * every time: the order pushes once more and falls silent, and must fire for the deadline of that last push, never the
 * one before. Ingest, timer, puller and compensator against a real Kafka, Redis and HTTP upstream.
 */
@ExtendWith(SharedStack.class)
@Tag("extended")
class DriftScanStaleImageTest {

    private static final Duration TTL = Duration.ofSeconds(6);
    private static final Duration PUSH_EVERY = Duration.ofSeconds(1);

    @TempDir
    Path stateDir;

    @Test
    void aScanNeverArmsAnOrderAtADeadlineAPushItHasNotSeenMovedWhenRedisLosesThatPushsArm(DevStack stack)
            throws Exception {
        try (FleetUpstream upstream = FleetUpstream.start();
                RunningLapse lapse = new RunningLapse(
                        stack.bootstrapServers(),
                        stack.redisUri(),
                        Map.of(
                                "timer.ttl",
                                TTL.toSeconds() + "s",
                                "timer.repeat",
                                "10m",
                                "upstream.base-url",
                                upstream.baseUrl(),
                                // the service's own scans stay out of the way: the test runs its rounds by hand
                                "compensator.scan-interval",
                                "10m"))) {
            lapse.startPipeline();
            CompensatorService compensator = lapse.startCompensator(stateDir);
            await().atMost(Duration.ofSeconds(60)).until(lapse::hasEveryEpoch);
            String order = "stale-1";
            KafkaProducer<byte[], byte[]> producer = lapse.producer();
            TimerKeys keys = new TimerKeys(
                    lapse.config.redis().keyPrefix(), lapse.config.timer().shards());
            for (int i = 0; i < 3; i++) {
                push(lapse, producer, upstream, order, System.currentTimeMillis());
                Thread.sleep(PUSH_EVERY.toMillis());
            }
            long mirrored = System.currentTimeMillis();
            push(lapse, producer, upstream, order, mirrored);
            await().atMost(Duration.ofSeconds(30)).until(() -> lastSeen(lapse, order) == mirrored);

            // between the scan's read of its mirror and its write: one more push, armed by ingest, then lost
            long[] last = new long[1];
            AtomicInteger asked = new AtomicInteger();
            DriftScan scan;
            try (Admin admin = lapse.clients.admin()) {
                scan = new DriftScan(
                        compensator.streams(),
                        compensator::handOverPushes,
                        CaughtUp.of(admin, lapse.config, Clock.systemUTC()),
                        () -> {
                            if (asked.incrementAndGet() == 2) { // the first batch is read: it holds `mirrored`
                                last[0] = Math.max(System.currentTimeMillis(), mirrored + PUSH_EVERY.toMillis());
                                push(lapse, producer, upstream, order, last[0]);
                                await().atMost(Duration.ofSeconds(30)).until(() -> lastSeen(lapse, order) == last[0]);
                                lapse.redis
                                        .async()
                                        .zrem(keys.due(keys.shardOf(order)), order)
                                        .toCompletableFuture()
                                        .join();
                            }
                            return true;
                        },
                        Watermarks.of(lapse.redis, keys, lapse.config),
                        () -> new MirrorWriter(
                                new TimerRebuild(lapse.redis, keys, lapse.config.timer()),
                                lapse.config.timer(),
                                false,
                                count -> {}),
                        new CompensatorMetrics(new SimpleMeterRegistry(), Clock.systemUTC()),
                        Duration.ofSeconds(1),
                        Clock.systemUTC());
                // once the watermark has passed the push the mirror holds, its image is one a round may compare
                await().atMost(Duration.ofSeconds(30)).until(() -> lapse.watermark() > mirrored);
                scan.runWhenDue();
                assertThat(asked.get())
                        .as("the scan read its mirror and compared")
                        .isGreaterThanOrEqualTo(2);

                // the order is silent now: after its last push's deadline, a round writes it back at that deadline
                long due = last[0] + TTL.toMillis();
                await().atMost(Duration.ofSeconds(30)).until(() -> lapse.watermark() > due);
                scan.runWhenDue();
            }
            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            lapse.expiries().stream().anyMatch(e -> e.orderId().equals(order)));

            List<TimerExpired> fired = lapse.expiries().stream()
                    .filter(e -> e.orderId().equals(order))
                    .toList();
            assertThat(fired.get(0))
                    .as("fired for its last push, %d ms after the one the scan had read", last[0] - mirrored)
                    .satisfies(expiry -> {
                        assertThat(expiry.lastSeen()).isEqualTo(last[0]);
                        assertThat(expiry.deadline()).isEqualTo(last[0] + TTL.toMillis());
                    });
        }
    }

    /** The lastSeen Redis holds for the order; 0 while it holds none. */
    private static long lastSeen(RunningLapse lapse, String order) {
        OrderView view = lapse.store.inspect(List.of(order)).join().get(order);
        return view.lastSeen().orElse(0);
    }

    private static void push(
            RunningLapse lapse, KafkaProducer<byte[], byte[]> producer, FleetUpstream upstream, String order, long ts) {
        StatusPush push = new StatusPush(order, "CHARGING", ts);
        upstream.pushed(push);
        try {
            producer.send(new ProducerRecord<>(
                            lapse.config.topics().push(),
                            order.getBytes(StandardCharsets.UTF_8),
                            JsonCodec.STATUS_PUSH.encode(push)))
                    .get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot push " + order, e);
        }
    }
}
