package io.lapse.puller.reading;

import io.lapse.event.TimerExpired;
import io.lapse.kafka.DeadLetterSink;
import io.lapse.puller.asking.Pull;
import io.lapse.puller.deciding.PullDispatcher;
import io.lapse.puller.deciding.PullDispatcher.Read;
import io.lapse.puller.deciding.PullDispatcher.Settled;
import io.lapse.puller.publishing.Redelivery;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.TimerStore;
import java.time.Clock;
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
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * One round of the puller's reading: polls expiries from the expired topic and the parked topic, looks them all up in
 * Redis at once, hands each to the {@link PullDispatcher} without waiting, and commits what was answered or parked.
 * Stops reading (pauses the partitions, yet keeps polling so that the group membership stays alive) while upstream
 * cannot take more: the circuit is open, or the pull threads and their queue could not take another poll's worth. A
 * partition of the parked topic is read once the record at its position is due ({@link ParkedDue}).
 *
 * <p>A poll is handed out earliest silence first (by {@code lastSeen}, then deadline; the asking stage keeps that
 * order among everything read and waiting for a pull thread), whatever partition an expiry came from. So of the
 * attempts of one order, the earlier is answered first, and the later can be answered by its pull. The consumer
 * fetches from every partition it is assigned, so none waits for another to be read to its end; it reads only the
 * partitions Kafka assigned to this instance, so the order holds within an instance, not across instances. The
 * consumer would read a backlog in long runs of one partition; {@link EvenReading} holds back the expired topic's
 * partitions read ahead in time, so that the backlog is read in the order the timer fired it.
 */
public final class ExpiryLoop {

    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    private static final long INSPECT_TIMEOUT_SECONDS = 30;

    private final Consumer<byte[], byte[]> consumer;
    private final InOrderCommits commits;
    private final TimerStore store;
    private final PullDispatcher dispatcher;
    private final DeadLetterSink deadLetters;
    private final BooleanSupplier upstreamTakesMore;
    private final BooleanSupplier probing;
    private final BacklogGauges backlog;
    private final DrainRate drain;
    private final EvenReading even;
    private final ParkedDue parkedDue;
    private final String parkedTopic;
    private final BooleanSupplier running;
    private final Clock clock;
    private final int answersInFlight;

    /**
     * @param upstreamTakesMore whether upstream may be handed another poll's worth of pulls
     * @param probing           whether a few pulls probe upstream after an outage
     * @param answersInFlight   the most expiries read and not yet answered or parked, before reading pauses
     */
    public ExpiryLoop(
            Consumer<byte[], byte[]> consumer,
            InOrderCommits commits,
            TimerStore store,
            PullDispatcher dispatcher,
            DeadLetterSink deadLetters,
            BooleanSupplier upstreamTakesMore,
            BooleanSupplier probing,
            BacklogGauges backlog,
            DrainRate drain,
            EvenReading even,
            String parkedTopic,
            BooleanSupplier running,
            Clock clock,
            int answersInFlight) {
        this.consumer = consumer;
        this.commits = commits;
        this.store = store;
        this.dispatcher = dispatcher;
        this.deadLetters = deadLetters;
        this.upstreamTakesMore = upstreamTakesMore;
        this.probing = probing;
        this.backlog = backlog;
        this.drain = drain;
        this.even = even;
        this.parkedDue = new ParkedDue();
        this.parkedTopic = parkedTopic;
        this.running = running;
        this.clock = clock;
        this.answersInFlight = answersInFlight;
        commits.alsoForget(parkedDue::forget);
    }

    public void next() throws Exception {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL_TIMEOUT);
        if (!records.isEmpty()) {
            answer(records);
        }
        commits.commitAdvanced();
        backlog.refreshWhenDue();
        Set<TopicPartition> assigned = consumer.assignment();
        boolean full = commits.inFlight() >= answersInFlight || !upstreamTakesMore.getAsBoolean();
        Set<TopicPartition> hold;
        if (full) {
            hold = assigned;
        } else {
            List<TopicPartition> expired = new ArrayList<>(assigned.size());
            List<TopicPartition> parked = new ArrayList<>();
            for (TopicPartition partition : assigned) {
                (isParked(partition) ? parked : expired).add(partition);
            }
            hold = new HashSet<>(even.ahead(expired, this::lag));
            hold.addAll(parkedDue.waiting(parked, clock.millis()));
            // the probes of an outage's end go to expiries upstream was not asked for yet: pulls back from waiting
            // may be for orders upstream keeps failing, which would keep the circuit open for every other order
            if (probing.getAsBoolean() && expired.stream().anyMatch(partition -> lag(partition) != 0)) {
                hold.addAll(parked);
            }
        }
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

    private boolean isParked(TopicPartition partition) {
        return partition.topic().equals(parkedTopic);
    }

    /** Records of the partition not read yet, as of the last fetch; -1 when unknown. */
    private long lag(TopicPartition partition) {
        return consumer.currentLag(partition).orElse(-1);
    }

    private record Polled(ConsumerRecord<byte[], byte[]> record, ExpiryReading reading) {
        /** Dead letters first: they need neither Redis nor upstream. */
        static final Comparator<Polled> EARLIEST_SILENCE_FIRST =
                Comparator.comparing(Polled::expiry, Comparator.nullsFirst(Pull.EARLIEST_SILENCE_FIRST));

        TimerExpired expiry() {
            return reading.expiry();
        }
    }

    private void answer(ConsumerRecords<byte[], byte[]> records) throws Exception {
        List<Polled> polled = new ArrayList<>(records.count());
        Set<String> orderIds = new HashSet<>();
        long now = clock.millis();
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> read = records.records(partition);
            for (ConsumerRecord<byte[], byte[]> record : read) {
                ExpiryReading reading = ExpiryReading.of(record);
                if (reading.dueAfter(now)) {
                    // read again, with what follows it, once it is due
                    consumer.seek(partition, record.offset());
                    parkedDue.notBefore(partition, reading.parked().dueAt());
                    break;
                }
                polled.add(new Polled(record, reading));
                if (reading.expiry() != null) {
                    orderIds.add(reading.expiry().orderId());
                }
            }
            if (!isParked(partition)) {
                even.read(partition, read.get(read.size() - 1).timestamp());
            }
        }
        Map<String, OrderView> views = inspect(orderIds, records);
        polled.sort(Polled.EARLIEST_SILENCE_FIRST);
        for (Polled p : polled) {
            ConsumerRecord<byte[], byte[]> record = p.record();
            ExpiryReading reading = p.reading();
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            CompletableFuture<Settled> settled = reading.expiry() != null
                    ? dispatcher.answer(
                            new Read(record, reading.expiry(), reading.copyOf(), reading.visits(), reading.asked()),
                            views.get(reading.expiry().orderId()))
                    : Redelivery.untilAcked(
                                    () -> deadLetters.send(record, reading.rejection()),
                                    "the dead letter of " + partition + "@" + record.offset(),
                                    running)
                            .thenApply(acked -> Settled.ANSWERED);
            commits.track(partition, record.offset(), record.timestamp(), settled);
            settled.thenAccept(how -> {
                if (how == Settled.ANSWERED) {
                    drain.answered();
                }
            });
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
