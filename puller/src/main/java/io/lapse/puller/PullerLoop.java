package io.lapse.puller;

import io.lapse.kafka.DeadLetterSink;
import io.lapse.store.OrderView;
import io.lapse.store.TimerStore;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One round of the puller: polls expiries, looks them all up in Redis at once, hands each out to be answered without
 * waiting, and commits what was answered. Pauses reading while too many are in flight, yet keeps polling so that the
 * group membership stays alive.
 */
final class PullerLoop {

    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    private static final long INSPECT_TIMEOUT_SECONDS = 30;

    private final Consumer<byte[], byte[]> consumer;
    private final InOrderCommits commits;
    private final TimerStore store;
    private final PullDispatcher dispatcher;
    private final DeadLetterSink deadLetters;
    private final BooleanSupplier running;
    private final int maxInFlight;

    PullerLoop(Consumer<byte[], byte[]> consumer, InOrderCommits commits, TimerStore store,
               PullDispatcher dispatcher, DeadLetterSink deadLetters, BooleanSupplier running, int maxInFlight) {
        this.consumer = consumer;
        this.commits = commits;
        this.store = store;
        this.dispatcher = dispatcher;
        this.deadLetters = deadLetters;
        this.running = running;
        this.maxInFlight = maxInFlight;
    }

    void next() throws Exception {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL_TIMEOUT);
        if (!records.isEmpty()) {
            answer(records);
        }
        commits.commitAdvanced();
        if (commits.inFlight() > maxInFlight) {
            consumer.pause(consumer.assignment());
        } else {
            consumer.resume(consumer.paused());
        }
    }

    private void answer(ConsumerRecords<byte[], byte[]> records) throws Exception {
        List<ConsumerRecord<byte[], byte[]>> polled = new ArrayList<>(records.count());
        List<ExpiryReading> readings = new ArrayList<>(records.count());
        Set<String> orderIds = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            ExpiryReading reading = ExpiryReading.of(record);
            polled.add(record);
            readings.add(reading);
            if (reading.expiry() != null) {
                orderIds.add(reading.expiry().orderId());
            }
        }
        Map<String, OrderView> views = inspect(orderIds, records);
        for (int i = 0; i < polled.size(); i++) {
            ConsumerRecord<byte[], byte[]> record = polled.get(i);
            ExpiryReading reading = readings.get(i);
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            CompletableFuture<Void> answered = reading.expiry() != null
                    ? dispatcher.answer(reading.expiry(), views.get(reading.expiry().orderId()))
                    : Redelivery.untilAcked(() -> deadLetters.send(record, reading.rejection()),
                    "the dead letter of " + partition + "@" + record.offset(), running);
            commits.track(partition, record.offset(), answered);
        }
    }

    /** When Redis cannot be asked, the batch is read again on the next poll rather than answered blind. */
    private Map<String, OrderView> inspect(Set<String> orderIds, ConsumerRecords<byte[], byte[]> records)
            throws Exception {
        if (orderIds.isEmpty()) {
            return Map.of();
        }
        try {
            return store.inspect(orderIds).get(INSPECT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            for (TopicPartition partition : records.partitions()) {
                consumer.seek(partition, records.records(partition).get(0).offset());
            }
            throw e;
        }
    }
}
