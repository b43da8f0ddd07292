package io.lapse.puller;

import io.lapse.event.TimerExpired;
import io.lapse.kafka.DeadLetterSink;
import io.lapse.store.OrderView;
import io.lapse.store.TimerStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * One round of the puller: polls expiries, looks them all up in Redis at once, hands each out to be answered without
 * waiting, and commits what was answered. Stops reading (pauses the partitions, yet keeps polling so that the group
 * membership stays alive) while upstream cannot take more: the circuit is open, or the pull threads and their queue
 * could not take another poll's worth.
 *
 * <p>A poll is handed out earliest silence first (by {@code lastSeen}, then deadline; see {@link PullQueue}, which
 * keeps that order among everything read and waiting for a pull thread), whatever partition an expiry came from. So
 * of the attempts of one order, the earlier is answered first, and the later can be answered by its pull. The
 * consumer fetches from every partition it is assigned, so none waits for another to be read to its end; it reads
 * only the partitions Kafka assigned to this instance, so the order holds within an instance, not across instances.
 * The consumer would read a backlog in long runs of one partition; {@link EvenReading} holds back the partitions read
 * ahead in time, so that the backlog is read in the order the timer fired it.
 */
final class PullerLoop {

    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    private static final long INSPECT_TIMEOUT_SECONDS = 30;

    private final Consumer<byte[], byte[]> consumer;
    private final InOrderCommits commits;
    private final TimerStore store;
    private final PullDispatcher dispatcher;
    private final DeadLetterSink deadLetters;
    private final BooleanSupplier upstreamTakesMore;
    private final BacklogGauges backlog;
    private final DrainRate drain;
    private final EvenReading even;
    private final IntSupplier held;
    private final BooleanSupplier running;
    private final int answersInFlight;

    PullerLoop(
            Consumer<byte[], byte[]> consumer,
            InOrderCommits commits,
            TimerStore store,
            PullDispatcher dispatcher,
            DeadLetterSink deadLetters,
            BooleanSupplier upstreamTakesMore,
            BacklogGauges backlog,
            DrainRate drain,
            EvenReading even,
            IntSupplier held,
            BooleanSupplier running,
            int answersInFlight) {
        this.consumer = consumer;
        this.commits = commits;
        this.store = store;
        this.dispatcher = dispatcher;
        this.deadLetters = deadLetters;
        this.upstreamTakesMore = upstreamTakesMore;
        this.backlog = backlog;
        this.drain = drain;
        this.even = even;
        this.held = held;
        this.running = running;
        this.answersInFlight = answersInFlight;
    }

    void next() throws Exception {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL_TIMEOUT);
        if (!records.isEmpty()) {
            answer(records);
        }
        commits.commitAdvanced();
        backlog.refreshWhenDue();
        Set<TopicPartition> assigned = consumer.assignment();
        // held final pulls take no pull thread, so however many there are, reading goes on for the others
        boolean full = commits.inFlight() - held.getAsInt() >= answersInFlight || !upstreamTakesMore.getAsBoolean();
        Set<TopicPartition> hold = full ? assigned : even.ahead(assigned, this::lag);
        Set<TopicPartition> paused = consumer.paused();
        List<TopicPartition> resume = new ArrayList<>();
        for (TopicPartition partition : paused) {
            if (!hold.contains(partition)) {
                resume.add(partition);
            }
        }
        consumer.pause(hold);
        consumer.resume(resume);
        even.readable(resume);
    }

    /** Records of the partition not read yet, as of the last fetch; -1 when unknown. */
    private long lag(TopicPartition partition) {
        return consumer.currentLag(partition).orElse(-1);
    }

    private record Polled(ConsumerRecord<byte[], byte[]> record, ExpiryReading reading) {
        /** Dead letters first: they need neither Redis nor upstream. */
        static final Comparator<Polled> EARLIEST_SILENCE_FIRST =
                Comparator.comparing(Polled::expiry, Comparator.nullsFirst(PullQueue.EARLIEST_SILENCE_FIRST));

        TimerExpired expiry() {
            return reading.expiry();
        }
    }

    private void answer(ConsumerRecords<byte[], byte[]> records) throws Exception {
        List<Polled> polled = new ArrayList<>(records.count());
        Set<String> orderIds = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            ExpiryReading reading = ExpiryReading.of(record);
            polled.add(new Polled(record, reading));
            if (reading.expiry() != null) {
                orderIds.add(reading.expiry().orderId());
            }
        }
        Map<String, OrderView> views = inspect(orderIds, records);
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> read = records.records(partition);
            even.read(partition, read.get(read.size() - 1).timestamp());
        }
        polled.sort(Polled.EARLIEST_SILENCE_FIRST);
        for (Polled p : polled) {
            ConsumerRecord<byte[], byte[]> record = p.record();
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            CompletableFuture<Void> answered = p.reading().expiry() != null
                    ? dispatcher.answer(
                            record, p.reading(), views.get(p.reading().expiry().orderId()))
                    : Redelivery.untilAcked(
                            () -> deadLetters.send(record, p.reading().rejection()),
                            "the dead letter of " + partition + "@" + record.offset(),
                            running);
            commits.track(partition, record.offset(), record.timestamp(), answered);
            answered.thenRun(drain::answered);
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
