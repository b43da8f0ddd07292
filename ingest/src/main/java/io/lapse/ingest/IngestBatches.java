package io.lapse.ingest;

import io.lapse.internal.Futures;
import io.lapse.kafka.DeadLetterSink;
import io.lapse.lifecycle.StartupTimeline;
import io.lapse.store.timers.TimerStore;
import io.lapse.store.watermarks.WatermarkReport;
import io.lapse.store.watermarks.Watermarks;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ingest's loop, one poll per call. A poll is decoded while Redis still applies the one before, so that decoding and
 * Redis overlap instead of taking turns; then that batch is awaited (its offsets go with the next commit, at most
 * every half second), and this one goes to Redis. Per batch: the updates and dead letters first, then its
 * watermarks, and only then its offsets. A batch that fails is rewound together with the one read behind it, so
 * that the next poll reads both again. A partition's watermark moves with the records read, and to the time of the
 * broker's latest {@link CaughtUpProof} once read up to its end offset.
 */
final class IngestBatches {

    private static final Logger log = LoggerFactory.getLogger(IngestBatches.class);
    private static final long ACK_TIMEOUT_SECONDS = 30;
    /*
     * Offsets of applied batches are committed at most this often (and whenever partitions leave): a commit per poll
     * is a broker request and a write to __consumer_offsets for every few records at a few hundred pushes a second,
     * while a crash re-reads at most this much, which re-arms nothing differently (a deadline only moves up).
     */
    private static final long COMMIT_INTERVAL_MS = 500;

    /** A batch Redis is applying, and what completes once it, its dead letters and its watermarks are written. */
    private record InFlight(PolledBatch batch, CompletableFuture<Void> written) {}

    private final Consumer<byte[], byte[]> consumer;
    private final RecordReader reader;
    private final TimerStore store;
    private final Watermarks watermarks;
    private final DeadLetterSink deadLetters;
    private final IngestMetrics metrics;
    private final Clock clock;
    private final EndOffsetProbe probe;
    private final PartitionProgress progress;
    private final Map<TopicPartition, OffsetAndMetadata> applied = new HashMap<>();
    private final Map<TopicPartition, OffsetAndMetadata> uncommitted = new HashMap<>();
    private long nextCommit;
    private InFlight inFlight;
    /** The last report sent to Redis; one that says the same is not sent again. Null after a batch failed. */
    private WatermarkReport reported;
    /** Whether a report put every assigned partition's mark past this process's start, which the log tells once. */
    private final AtomicBoolean caughtUpWithStart = new AtomicBoolean();

    IngestBatches(
            Consumer<byte[], byte[]> consumer,
            RecordReader reader,
            TimerStore store,
            Watermarks watermarks,
            DeadLetterSink deadLetters,
            IngestMetrics metrics,
            Clock clock,
            EndOffsetProbe probe,
            PartitionProgress progress) {
        this.consumer = consumer;
        this.reader = reader;
        this.store = store;
        this.watermarks = watermarks;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        this.clock = clock;
        this.probe = probe;
        this.progress = progress;
        metrics.watchHeldBack(() -> progress.heldBack(clock.millis()));
    }

    void next() throws Exception {
        // a quiet partition's mark moves to each of the probe's answers as it lands
        ConsumerRecords<byte[], byte[]> records = consumer.poll(probe.untilNextTurn());
        long readTime = clock.millis();
        PolledBatch polled = PolledBatch.read(
                records,
                reader,
                progress,
                metrics,
                readTime,
                () -> progress.report(consumer.assignment(), this::position, probe.latest(), readTime));
        InFlight previous = inFlight;
        inFlight = null;
        if (previous != null) {
            try {
                commitWhenWritten(previous);
            } catch (Exception e) {
                rewind(List.of(previous.batch(), polled));
                throw e;
            }
        }
        try {
            inFlight = write(polled);
        } catch (RuntimeException e) {
            rewind(List.of(polled));
            throw e;
        }
        commitIfDue();
    }

    private InFlight write(PolledBatch batch) {
        List<CompletableFuture<?>> writes = new ArrayList<>();
        if (!batch.updates().isEmpty()) {
            long started = System.nanoTime();
            writes.add(store.apply(batch.updates()).thenAccept(result -> {
                metrics.batch.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
                metrics.applied(result);
            }));
        }
        batch.rejections().forEach(r -> writes.add(deadLetters.send(r.record(), r.reason())));
        CompletableFuture<Void> updated = Futures.allDone(writes);
        // an idle turn's report mostly says what the last one said: Redis holds it already (a flush takes it away
        // until a mark moves, which the next answer of the broker does)
        if (batch.report().saysWhat(reported)) {
            return new InFlight(batch, updated);
        }
        reported = batch.report();
        CompletableFuture<Void> written = updated.thenCompose(v -> watermarks.report(batch.report()));
        if (!caughtUpWithStart.get()) {
            int assigned = consumer.assignment().size();
            written = written.thenRun(() -> noteCaughtUpWithStart(batch.report(), assigned));
        }
        return new InFlight(batch, written);
    }

    /**
     * Logs, once, when the watermarks first pass the moment this process started: from then on the timer may fire
     * what fell due while ingest was down, the last step of a restart (issue 40's breakdown).
     */
    private void noteCaughtUpWithStart(WatermarkReport report, int assigned) {
        if (assigned == 0 || report.marks().size() < assigned) {
            return;
        }
        long started = StartupTimeline.processStartMillis();
        if (report.marks().values().stream().allMatch(mark -> mark >= started)
                && caughtUpWithStart.compareAndSet(false, true)) {
            log.info("watermarks past the process's start, {} after it", StartupTimeline.sinceProcessStart());
        }
    }

    /** The consumer's next offset in the partition, without waiting for it when the consumer has none yet. */
    private OptionalLong position(TopicPartition partition) {
        try {
            return OptionalLong.of(consumer.position(partition, Duration.ZERO));
        } catch (TimeoutException | IllegalStateException e) {
            return OptionalLong.empty();
        }
    }

    /** Waits until the batch is written; its offsets are then committed with the next commit. */
    private void commitWhenWritten(InFlight written) throws Exception {
        written.written().get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetAndMetadata> offsets =
                new HashMap<>(written.batch().next());
        // a partition revoked meanwhile is its new owner's to commit
        offsets.keySet().retainAll(consumer.assignment());
        applied.putAll(offsets);
        uncommitted.putAll(offsets);
    }

    private void commitIfDue() {
        long now = clock.millis();
        if (uncommitted.isEmpty() || now < nextCommit) {
            return;
        }
        nextCommit = now + COMMIT_INTERVAL_MS;
        consumer.commitAsync(takeUncommitted(), (committed, error) -> {
            if (error != null) {
                log.warn("committing ingest offsets failed; the next commit covers them", error);
            }
        });
    }

    private Map<TopicPartition, OffsetAndMetadata> takeUncommitted() {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>(uncommitted);
        uncommitted.clear();
        offsets.keySet().retainAll(consumer.assignment());
        return offsets;
    }

    /**
     * Seeks every partition of the batches back to the first offset not yet applied, and forgets how far they were
     * read: a later batch may hold only part of what is read again, and must not report a watermark past it.
     */
    private void rewind(List<PolledBatch> batches) {
        Map<TopicPartition, Long> from = new HashMap<>();
        batches.forEach(b -> b.first().forEach((partition, offset) -> from.merge(partition, offset, Math::min)));
        progress.forget(from.keySet());
        reported = null;
        Set<TopicPartition> assigned = consumer.assignment();
        from.forEach((partition, offset) -> {
            if (assigned.contains(partition)) {
                consumer.seek(partition, offset);
            }
        });
    }

    /**
     * Finishes the batch in flight, before its partitions are revoked or the consumer closes, so that its offsets are
     * committed; if it fails, it is rewound and read again.
     */
    void finish() {
        InFlight last = inFlight;
        inFlight = null;
        if (last != null) {
            try {
                commitWhenWritten(last);
            } catch (Exception e) {
                log.warn("an ingest batch was not applied; it is read again: {}", e.toString());
                rewind(List.of(last.batch()));
            }
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = takeUncommitted();
        if (!offsets.isEmpty()) {
            try {
                consumer.commitSync(offsets);
            } catch (WakeupException e) {
                // closing wakes the consumer; if it was not blocked then, the wakeup lands here instead, once
                consumer.commitSync(offsets);
            }
        }
    }

    /** The consumer's assignment changes after the callbacks that announce a loss. */
    private void watchAllBut(Collection<TopicPartition> leaving) {
        Set<TopicPartition> kept = new HashSet<>(consumer.assignment());
        kept.removeAll(leaving);
        probe.watch(kept);
    }

    ConsumerRebalanceListener rebalanceListener() {
        return new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                finish();
                Map<TopicPartition, OffsetAndMetadata> leaving = new HashMap<>();
                partitions.forEach(p -> {
                    OffsetAndMetadata offset = applied.remove(p);
                    if (offset != null) {
                        leaving.put(p, offset);
                    }
                });
                if (!leaving.isEmpty()) {
                    consumer.commitSync(leaving);
                }
                progress.forget(partitions);
                watchAllBut(partitions);
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                // another member owns them already: committing would fail, and their offsets are its concern now
                partitions.forEach(applied::remove);
                partitions.forEach(uncommitted::remove);
                progress.forget(partitions);
                watchAllBut(partitions);
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                probe.watch(consumer.assignment());
                log.info("ingest reads {} (process up {})", partitions, StartupTimeline.sinceProcessStart());
            }
        };
    }
}
