package io.lapse.operations.replay;

import io.lapse.operations.cli.Progress;
import io.lapse.operations.kafka.Coordinate;
import io.lapse.operations.republish.CopyLedger;
import io.lapse.operations.republish.CopyMark;
import io.lapse.operations.republish.ExpiryPicks;
import io.lapse.operations.republish.Republisher;
import io.lapse.store.timers.OrderView;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One replay: learns what the target already holds copies of, then decides record by record what to re-publish, and
 * publishes it (or, in a dry run, only counts it). Records of the expired topic are picked per order at the end.
 */
final class ReplayRun {

    private final String target;
    private final byte[] order;
    private final ExpiryPicks<ConsumerRecord<byte[], byte[]>> expiries;
    private final Republisher publisher;
    private final CopyLedger ledger;
    private final List<String> sample = new ArrayList<>();
    private final Map<String, Long> perPartition = new TreeMap<>();
    private long read;
    private long copies;
    private long otherKeys;
    private long replayedBefore;
    private long selected;
    private ExpiryPicks.Selection<ConsumerRecord<byte[], byte[]>> selection;

    /**
     * @param order     only this order's records (its key's bytes), or null for all
     * @param expiries  the picks of an expired-topic replay, or null for a topic replayed record by record
     * @param publisher null for a dry run
     */
    ReplayRun(
            String target,
            byte[] order,
            ExpiryPicks<ConsumerRecord<byte[], byte[]>> expiries,
            Republisher publisher,
            CopyLedger ledger) {
        this.target = target;
        this.order = order;
        this.expiries = expiries;
        this.publisher = publisher;
        this.ledger = ledger;
    }

    /** A record of the target topic, read from the start of the range on. */
    void noteTarget(ConsumerRecord<byte[], byte[]> record) {
        if (ledger.note(record) && expiries != null) {
            expiries.noteCopy(record.value());
        }
    }

    /** A record of the range. */
    void offer(ConsumerRecord<byte[], byte[]> record) {
        read++;
        if (CopyMark.of(record.headers()) != null) {
            copies++;
        } else if (order != null && !Arrays.equals(order, record.key())) {
            otherKeys++;
        } else if (expiries != null) {
            expiries.offer(record, record.value());
        } else if (ledger.holdsCopyOf(Coordinate.of(record))) {
            replayedBefore++;
        } else {
            publish(record);
        }
    }

    /** After the range: publishes the expiry picked for each order. */
    void publishPicks(Function<Collection<String>, Map<String, OrderView>> views, Progress progress) {
        if (expiries == null) {
            return;
        }
        selection = expiries.select(views);
        for (ExpiryPicks.Pick<ConsumerRecord<byte[], byte[]>> pick : selection.picks()) {
            publish(pick.carrier());
            progress.advance(1);
        }
    }

    private void publish(ConsumerRecord<byte[], byte[]> record) {
        selected++;
        perPartition.merge(record.topic() + "/" + record.partition(), 1L, Long::sum);
        if (publisher != null) {
            // onto its own topic a copy keeps its original's partition; another topic's partitions mean nothing to it
            Integer partition = target.equals(record.topic()) ? record.partition() : null;
            publisher.send(
                    target,
                    partition,
                    record.key(),
                    record.value(),
                    record.headers(),
                    record.timestamp(),
                    Coordinate.of(record));
        } else if (sample.size() < ReplayReport.SHOWN) {
            String key = record.key() == null ? "(no key)" : new String(record.key(), StandardCharsets.UTF_8);
            sample.add(Coordinate.of(record) + " key " + key);
        }
    }

    /** Waits for Kafka to answer for every copy, then says what the run did. */
    ReplayReport finish(String topic, String from, String to, String key, long millis) {
        Republisher.Outcome outcome = publisher == null ? new Republisher.Outcome(0, 0, null) : publisher.finish();
        return new ReplayReport(
                topic,
                target,
                from,
                to,
                key,
                publisher == null,
                read,
                selection == null ? null : selection.orders(),
                copies,
                otherKeys,
                expiries == null ? 0 : expiries.unreadable(),
                selection == null ? 0 : selection.statusSince(),
                replayedBefore + (selection == null ? 0 : selection.replayedBefore()),
                selected,
                outcome.published(),
                outcome.failed(),
                outcome.firstError(),
                List.copyOf(sample),
                Map.copyOf(perPartition),
                millis);
    }
}
