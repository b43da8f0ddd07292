package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.compensator.fold.CaughtUp;
import io.lapse.compensator.fold.CompensatorTopology;
import io.lapse.compensator.mirror.ChangelogMirror;
import io.lapse.compensator.mirror.MirrorWriter;
import io.lapse.compensator.rebuild.FullRebuild;
import io.lapse.compensator.rebuild.RebuildResult;
import io.lapse.compensator.rebuild.RebuildSummary;
import io.lapse.devstack.DevStack;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import io.lapse.store.TimerKeys;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.TimerRebuild;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * After Redis lost its data, the orders due soon fire while the rest of the rebuild is still being written, and only
 * they: the rebuild here is held before its second pass until the test has seen what fired. Ingest, timer and puller
 * run against a real Kafka and Redis; the rebuild reads the mirror the compensator left in its changelog, as
 * {@code lapse rebuild} does, while old statuses are replayed into ingest.
 */
@ExtendWith(SharedStack.class)
@Tag("extended")
class RebuildHorizonTest {

    private static final Duration TTL = Duration.ofSeconds(20);
    private static final Duration REPEAT = Duration.ofMinutes(10);
    private static final Duration GENEROUS = Duration.ofSeconds(60);

    @TempDir
    Path stateDir;

    @Test
    void anOrderDueDuringTheRebuildFiresBeforeItIsDoneWhileFinishedAndFarOrdersDoNot(DevStack stack) throws Exception {
        try (FleetUpstream upstream = FleetUpstream.start();
                RunningLapse lapse = new RunningLapse(
                        stack.bootstrapServers(),
                        stack.redisUri(),
                        Map.of(
                                "timer.ttl",
                                TTL.toMillis() + "ms",
                                "timer.repeat",
                                REPEAT.toMillis() + "ms",
                                "upstream.base-url",
                                upstream.baseUrl()))) {
            KafkaProducer<byte[], byte[]> producer = lapse.producer();
            lapse.startPipeline().startCompensator(stateDir);
            await().atMost(GENEROUS).until(lapse::hasEveryEpoch);
            long now = System.currentTimeMillis();
            // fired its first expiry before the loss; the next is due a repeat later, far past the first pass
            StatusPush acknowledgedPush = new StatusPush("acknowledged", "CHARGING", now - TTL.toMillis());
            // finished before the loss; its old status, replayed after it, would be due at once
            StatusPush finishedPush = new StatusPush("finished", "CHARGING", now - 60_000);
            push(producer, lapse, upstream, acknowledgedPush);
            push(producer, lapse, upstream, new StatusPush("finished", "FINISHED", now - 30_000));
            await().atMost(GENEROUS)
                    .until(() ->
                            lapse.expiries().stream().anyMatch(e -> e.orderId().equals("acknowledged")));
            await().atMost(GENEROUS)
                    .until(() -> lapse.store
                                    .inspect(List.of("acknowledged"))
                                    .join()
                                    .get("acknowledged")
                                    .attempt()
                            == 1);
            // silent from now on: due a ttl from now, while the rebuild is held before its second pass
            push(producer, lapse, upstream, new StatusPush("soon", "CHARGING", System.currentTimeMillis()));
            Admin admin = lapse.clients.admin();
            CaughtUp caughtUp = CaughtUp.of(admin, lapse.config, Clock.systemUTC());
            assertThat(caughtUp.await(GENEROUS))
                    .as("records the compensator has yet to process")
                    .isZero();
            lapse.compensator().close(); // so that the rebuild below is the only one

            lapse.redis.async().flushall().toCompletableFuture().join();
            long lossAt = System.currentTimeMillis();
            int before = lapse.expiries().size();
            CountDownLatch secondPass = new CountDownLatch(1);
            AtomicInteger passes = new AtomicInteger();
            FullRebuild.Listener listener = new FullRebuild.Listener() {
                @Override
                public void opened(long size) {
                    if (passes.incrementAndGet() == 1) {
                        replay(producer, lapse, acknowledgedPush, finishedPush);
                    } else {
                        awaitQuietly(secondPass);
                    }
                }

                @Override
                public void advanced(long done) {}
            };
            try (admin;
                    Consumer<byte[], byte[]> changelog = ChangelogMirror.consumer(lapse.clients, "horizon-test")) {
                CompletableFuture<RebuildResult> rebuild =
                        CompletableFuture.supplyAsync(() -> rebuild(lapse, caughtUp, changelog, listener));

                await().atMost(GENEROUS)
                        .until(() -> expiriesAfter(lapse, before).stream()
                                .anyMatch(e -> e.orderId().equals("soon")));
                assertThat(rebuild)
                        .as("the rebuild is held before its second pass")
                        .isNotDone();
                assertThat(lapse.epochs.current().join().values()).containsOnlyNulls();
                TimerExpired soon = expiriesAfter(lapse, before).get(0);
                assertThat(soon.orderId())
                        .as("the first to fire after the loss")
                        .isEqualTo("soon");
                assertThat(soon.attempt()).isEqualTo(1);
                assertThat(soon.source()).isEqualTo(TimerExpired.Source.COMPENSATOR);
                assertThat(soon.firedAt()).isGreaterThan(lossAt);
                await().atMost(GENEROUS)
                        .until(() -> lapse.store
                                        .inspect(List.of("acknowledged"))
                                        .join()
                                        .get("acknowledged")
                                        .phase()
                                == OrderView.Phase.ARMED); // ingest armed its replayed status, due at once
                replay(producer, lapse, finishedPush); // now the tombstone is in place
                await().during(Duration.ofSeconds(3))
                        .atMost(Duration.ofSeconds(15))
                        .untilAsserted(() -> assertThat(expiriesAfter(lapse, before))
                                .extracting(TimerExpired::orderId)
                                .containsExactly("soon"));

                secondPass.countDown();
                RebuildResult result = rebuild.get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
                assertThat(result.complete()).as(RebuildSummary.of(result)).isTrue();
                assertThat(lapse.hasEveryEpoch()).isTrue();
            }
            // a far order fired early, or a finished one revived, would fire at once: both statuses are long due
            await().during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(15))
                    .untilAsserted(() -> assertThat(expiriesAfter(lapse, before))
                            .extracting(TimerExpired::orderId)
                            .containsExactly("soon"));
            assertThat(lapse.store
                            .inspect(List.of("acknowledged"))
                            .join()
                            .get("acknowledged")
                            .attempt())
                    .as("the attempt it fired before the loss, its next one a repeat later")
                    .isEqualTo(1);
        }
    }

    private static RebuildResult rebuild(
            RunningLapse lapse, CaughtUp caughtUp, Consumer<byte[], byte[]> changelog, FullRebuild.Listener listener) {
        String topic = CompensatorTopology.changelog(lapse.config.compensator().applicationId());
        TimerKeys keys = new TimerKeys(
                lapse.config.redis().keyPrefix(), lapse.config.timer().shards());
        try {
            return new FullRebuild(
                            lapse.epochs, caughtUp, () -> new ChangelogMirror(changelog, topic), Clock.systemUTC())
                    .run(
                            new MirrorWriter(
                                    new TimerRebuild(lapse.redis, keys, lapse.config.timer()),
                                    lapse.config.timer(),
                                    false,
                                    count -> {}),
                            GENEROUS,
                            FullRebuild.WhenBehind.POSTPONE,
                            listener);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void push(
            KafkaProducer<byte[], byte[]> producer, RunningLapse lapse, FleetUpstream upstream, StatusPush status) {
        upstream.pushed(status);
        replay(producer, lapse, status);
    }

    /** Sends statuses to ingest, whether for the first time or again. */
    private static void replay(KafkaProducer<byte[], byte[]> producer, RunningLapse lapse, StatusPush... statuses) {
        for (StatusPush status : statuses) {
            producer.send(new ProducerRecord<>(
                    lapse.config.topics().push(),
                    status.orderId().getBytes(StandardCharsets.UTF_8),
                    JsonCodec.STATUS_PUSH.encode(status)));
        }
        producer.flush();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(GENEROUS.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Those recorded after the first {@code before}, from one snapshot: the recorder goes on adding meanwhile. */
    private static List<TimerExpired> expiriesAfter(RunningLapse lapse, int before) {
        List<TimerExpired> all = lapse.expiries();
        return all.subList(before, all.size());
    }
}
