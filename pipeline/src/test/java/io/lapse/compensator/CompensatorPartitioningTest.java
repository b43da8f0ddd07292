package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.compensator.mirror.Fired;
import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.MirrorSource;
import io.lapse.compensator.mirror.OrderState;
import io.lapse.devstack.DevStack;
import io.lapse.event.JsonCodec;
import io.lapse.event.OrderUpdate;
import io.lapse.event.PullResult;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.KeyPartitions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compensator keeps each order's state in one partition of its mirror, whichever partitions the order's records
 * arrive in: producers partition as they like (librdkafka hashes keys with CRC-32, the Java client with murmur2), the
 * topics differ in partition count, and partitions are added to a topic while the compensator runs. The growth of the
 * topics the streams read runs in {@code verify}: no other test there, and no strike of the chaos run, adds partitions.
 */
@ExtendWith(SharedStack.class)
class CompensatorPartitioningTest {

    private static final Duration TTL = Duration.ofSeconds(90);
    private static final Duration REPEAT = Duration.ofSeconds(60);
    private static final Duration GENEROUS = Duration.ofSeconds(90);
    private static final int ORDERS = 120;

    @TempDir
    Path stateDir;

    private final Map<String, List<MirrorInput>> inputs = new HashMap<>();

    @Test
    @Tag("extended")
    void anOrdersPushesPullsAndExpiriesInPartitionsOtherThanTheJavaClientsFoldIntoOneState(DevStack stack)
            throws Exception {
        try (RunningLapse lapse = new RunningLapse(stack.bootstrapServers(), stack.redisUri(), settings())) {
            // three partitions for pushes and expiries, five for pulls
            grow(lapse.withTopics(), lapse.config.topics().pulled(), 5);
            CompensatorService compensator = lapse.startCompensator(stateDir);
            await().atMost(GENEROUS).until(lapse::hasEveryEpoch);
            KafkaProducer<byte[], byte[]> producer = lapse.producer();
            long now = System.currentTimeMillis();

            for (int i = 0; i < ORDERS; i++) {
                String orderId = "order-" + i;
                long seen = now - 300_000 + i;
                byte[] key = key(orderId);
                boolean finished = i % 7 == 0;
                push(producer, lapse, orderId, seen, KeyPartitions.librdkafka(key, 3), finished);
                fire(producer, lapse, orderId, seen, (KeyPartitions.javaClient(key, 3) + 1) % 3);
                if (!finished) { // a newer status read before the terminal one would leave a later lastSeen behind it
                    pull(producer, lapse, orderId, seen, (KeyPartitions.javaClient(key, 5) + 2) % 5);
                }
            }
            producer.flush();

            assertMirrorHoldsOneStatePerOrder(compensator);
        }
    }

    @Test
    @Tag("extended")
    void ordersKeepOneStateWhenTheirPushesMoveToPartitionsAddedWhileTheCompensatorRuns(DevStack stack)
            throws Exception {
        try (RunningLapse lapse = new RunningLapse(stack.bootstrapServers(), stack.redisUri(), settings())) {
            long now = System.currentTimeMillis();
            CompensatorService compensator = startedWithOrdersPushed(lapse, now);

            // more partitions than the mirror has: the push folder reads them as they appear, and hands what it reads
            // there to the partitions of the mirror the orders live in
            grow(lapse, lapse.config.topics().push(), 6);
            // a producer of its own for the new partitions: one that wrote before they existed had its idempotent
            // sequence numbers for them refused by this broker (OUT_OF_ORDER_SEQUENCE_NUMBER, retried for ever)
            KafkaProducer<byte[], byte[]> later = lapse.producer();
            for (int i = 0; i < ORDERS; i++) {
                String orderId = "order-" + i;
                push(later, lapse, orderId, now - 200_000 + i, 3 + i % 3, i % 7 == 0);
            }
            later.flush();

            assertMirrorHoldsOneStatePerOrder(compensator);
            await().atMost(GENEROUS).until(compensator::isReady);
        }
    }

    @Test
    void pullsAndExpiriesInPartitionsAddedWhileTheCompensatorRunsFoldIntoTheMirrorAndItStaysReady(DevStack stack)
            throws Exception {
        try (RunningLapse lapse = new RunningLapse(stack.bootstrapServers(), stack.redisUri(), settings())) {
            long now = System.currentTimeMillis();
            CompensatorService compensator = startedWithOrdersPushed(lapse, now);

            // the streams read these topics themselves: a task per partition, and every store's changelog must have
            // as many partitions as the tasks, or Kafka Streams fails each thread that joins
            grow(lapse, lapse.config.topics().expired(), 6);
            grow(lapse, lapse.config.topics().pulled(), 6);
            KafkaProducer<byte[], byte[]> later = lapse.producer();
            for (int i = 0; i < ORDERS; i++) {
                String orderId = "order-" + i;
                long seen = now - 300_000 + i;
                fire(later, lapse, orderId, seen, 3 + i % 3);
                pull(later, lapse, orderId, seen, 3 + (i + 1) % 3);
            }
            later.flush();

            assertMirrorHoldsOneStatePerOrder(compensator);
            await().atMost(GENEROUS).until(compensator::isReady);
        }
    }

    /** A compensator whose mirror holds the orders' pushes, written where the Java client puts them, at now − 300 s. */
    private CompensatorService startedWithOrdersPushed(RunningLapse lapse, long now) {
        CompensatorService compensator = lapse.startCompensator(stateDir);
        await().atMost(GENEROUS).until(lapse::hasEveryEpoch);
        KafkaProducer<byte[], byte[]> producer = lapse.producer();
        for (int i = 0; i < ORDERS; i++) {
            String orderId = "order-" + i;
            push(producer, lapse, orderId, now - 300_000 + i, KeyPartitions.javaClient(key(orderId), 3), false);
        }
        producer.flush();
        assertMirrorHoldsOneStatePerOrder(compensator);
        return compensator;
    }

    private void assertMirrorHoldsOneStatePerOrder(CompensatorService compensator) {
        Map<String, OrderState> expected = new HashMap<>();
        inputs.forEach((orderId, list) -> {
            OrderState state = null;
            for (MirrorInput input : list) {
                state = input.applyTo(state);
            }
            expected.put(orderId, state);
        });
        await().atMost(GENEROUS).ignoreExceptions().untilAsserted(() -> {
            Map<String, OrderState> mirror = new HashMap<>();
            AtomicLong entries = new AtomicLong();
            compensator
                    .localMirror()
                    .read(
                            batch -> {
                                entries.addAndGet(batch.size());
                                mirror.putAll(batch);
                            },
                            MirrorSource.Progress.NONE);
            assertThat(mirror).isEqualTo(expected);
            assertThat(entries.get()).as("entries in every partition's store").isEqualTo(expected.size());
        });
    }

    private void push(
            KafkaProducer<byte[], byte[]> producer,
            RunningLapse lapse,
            String orderId,
            long seen,
            int partition,
            boolean terminal) {
        inputs.computeIfAbsent(orderId, id -> new ArrayList<>())
                .add(new MirrorInput.Status(
                        terminal ? OrderUpdate.terminal(orderId, seen) : OrderUpdate.active(orderId, seen)));
        producer.send(new ProducerRecord<>(
                lapse.config.topics().push(),
                partition,
                key(orderId),
                JsonCodec.STATUS_PUSH.encode(new StatusPush(orderId, terminal ? "FINISHED" : "CHARGING", seen))));
    }

    /** The timer's first expiry of the order, counting from {@code lastSeen}. */
    private void fire(
            KafkaProducer<byte[], byte[]> producer, RunningLapse lapse, String orderId, long lastSeen, int partition) {
        TimerExpired expiry = expiry(orderId, lastSeen);
        inputs.get(orderId).add(Fired.of(expiry));
        producer.send(new ProducerRecord<>(
                lapse.config.topics().expired(), partition, key(orderId), JsonCodec.TIMER_EXPIRED.encode(expiry)));
    }

    /** The puller's answer to that expiry: a newer status. */
    private void pull(
            KafkaProducer<byte[], byte[]> producer, RunningLapse lapse, String orderId, long lastSeen, int partition) {
        long newer = lastSeen + TTL.toMillis() + 1_000;
        inputs.get(orderId).add(new MirrorInput.Status(OrderUpdate.active(orderId, newer)));
        PullResult result =
                PullResult.ok(expiry(orderId, lastSeen), new StatusPush(orderId, "CHARGING", newer), newer + 10);
        producer.send(new ProducerRecord<>(
                lapse.config.topics().pulled(), partition, key(orderId), JsonCodec.PULL_RESULT.encode(result)));
    }

    private static TimerExpired expiry(String orderId, long lastSeen) {
        long firedAt = lastSeen + TTL.toMillis() + 3;
        return new TimerExpired(orderId, firedAt - 3, lastSeen, 1, firedAt, TimerExpired.Source.TIMER, false);
    }

    /** Adds partitions to the topic, and returns once each has a leader. */
    private static void grow(RunningLapse lapse, String topic, int partitions) throws Exception {
        try (Admin admin = lapse.clients.admin()) {
            admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(partitions)))
                    .all()
                    .get();
            await().atMost(GENEROUS)
                    .until(() ->
                            admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().stream()
                                            .filter(partition -> partition.leader() != null)
                                            .count()
                                    == partitions);
        }
    }

    /** Rounds of 2 s: the push folder hands its pushes to the mirror at the end of each. */
    private static Map<String, String> settings() {
        return Map.of(
                "timer.ttl",
                TTL.toSeconds() + "s",
                "timer.repeat",
                REPEAT.toSeconds() + "s",
                "compensator.scan-interval",
                "2s");
    }

    private static byte[] key(String orderId) {
        return orderId.getBytes(StandardCharsets.UTF_8);
    }
}
