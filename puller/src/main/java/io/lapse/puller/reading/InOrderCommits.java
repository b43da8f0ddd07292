package io.lapse.puller.reading;

import io.lapse.lifecycle.StartupTimeline;
import java.util.Collection;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the consumer's offsets as answers (or parked records) are acknowledged, each partition only up to its first
 * record still in flight. Acknowledgements arrive on any thread; everything else runs on the consumer's thread.
 */
public final class InOrderCommits {

    private static final Logger log = LoggerFactory.getLogger(InOrderCommits.class);

    private final Consumer<byte[], byte[]> consumer;
    private final OffsetTracker tracker = new OffsetTracker();
    private final Queue<Acked> acked = new ConcurrentLinkedQueue<>();
    private volatile int inFlight;
    private Forgetting alsoForget = partitions -> {};

    private record Acked(TopicPartition partition, long offset) {}

    /** Forgets what it knows of partitions that went to another consumer. */
    @FunctionalInterface
    interface Forgetting {
        void forget(Collection<TopicPartition> partitions);
    }

    public InOrderCommits(Consumer<byte[], byte[]> consumer) {
        this.consumer = consumer;
    }

    /** What else to forget of partitions that go to another consumer. */
    void alsoForget(Forgetting forget) {
        this.alsoForget = forget;
    }

    /** @param answered completes once the record's answer is acknowledged; failing, it leaves the offset open */
    void track(TopicPartition partition, long offset, long timestamp, CompletableFuture<?> answered) {
        tracker.register(partition, offset, timestamp);
        inFlight = tracker.inFlight();
        answered.thenRun(() -> acked.add(new Acked(partition, offset)));
    }

    /** Records polled whose answer is not acknowledged yet; readable from any thread. */
    int inFlight() {
        return inFlight;
    }

    /** The first offset of the partition not answered yet, as far as this consumer read it. */
    OptionalLong firstUnanswered(TopicPartition partition) {
        return tracker.firstUndone(partition);
    }

    /** The timestamp of the oldest record read and not answered yet. */
    OptionalLong oldestUnansweredTimestamp(TopicPartition partition) {
        return tracker.oldestUndoneTimestamp(partition);
    }

    void commitAdvanced() {
        settle();
        Map<TopicPartition, OffsetAndMetadata> advanced = tracker.advanced();
        if (!advanced.isEmpty()) {
            consumer.commitAsync(advanced, (offsets, error) -> {
                if (error != null) {
                    log.warn("committing puller offsets failed; the next commit covers them", error);
                }
            });
        }
    }

    /** Commits what is committable of every assigned partition, before the consumer closes. */
    public void commitAll() {
        try {
            commitSync(consumer.assignment());
        } catch (WakeupException e) {
            // closing wakes the consumer; if it was not blocked then, the wakeup lands here instead
            commitSync(consumer.assignment());
        }
    }

    private void commitSync(Collection<TopicPartition> partitions) {
        settle();
        Map<TopicPartition, OffsetAndMetadata> offsets = tracker.committable(partitions);
        if (!offsets.isEmpty()) {
            consumer.commitSync(offsets);
        }
    }

    private void settle() {
        for (Acked a = acked.poll(); a != null; a = acked.poll()) {
            tracker.done(a.partition(), a.offset());
        }
        inFlight = tracker.inFlight();
    }

    private void forget(Collection<TopicPartition> partitions) {
        tracker.forget(partitions);
        inFlight = tracker.inFlight();
        alsoForget.forget(partitions);
    }

    public ConsumerRebalanceListener rebalanceListener() {
        return new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                try {
                    commitSync(partitions);
                } catch (KafkaException e) {
                    log.warn(
                            "committing revoked partitions {} failed; their next owner repeats some pulls",
                            partitions,
                            e);
                }
                forget(partitions);
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                // another member owns them already: committing would fail, and their offsets are its concern now
                forget(partitions);
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                log.info("puller reads {} (process up {})", partitions, StartupTimeline.sinceProcessStart());
            }
        };
    }
}
