package io.lapse.operations.inspect;

import io.lapse.event.CohortName;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Progress;
import io.lapse.operations.kafka.OffsetRange;
import io.lapse.operations.kafka.TopicScan;
import io.lapse.operations.kafka.Topics;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * Which orders are in one cohort, and what happened to them since its silence began, read from the topics: the
 * cohort's orders are those whose pushes within a bounded time range name it (with the same {@link CohortName} ingest
 * counts them by), and each one's expiries and pull results since are counted. Only the cohort's orders are kept, so
 * memory grows with the cohort, not with the fleet.
 */
final class CohortMembers {

    /** What the expired and pulled topics hold of one order of the cohort since its silence began. */
    static final class Trail {
        int expiries;
        TimerExpired lastExpiry;
        int pulls;
        PullResult lastPull;
    }

    private final Connections connections;
    private final KafkaConsumer<byte[], byte[]> reader;
    private final Map<String, Trail> trails = new HashMap<>();

    private CohortMembers(Connections connections, KafkaConsumer<byte[], byte[]> reader) {
        this.connections = connections;
        this.reader = reader;
    }

    /**
     * @param from, to the pushes read for the cohort's orders (epoch ms); every order of the cohort that was pushing
     *     pushed within them
     * @param since    expiries and pull results are counted from here on
     */
    static CohortMembers find(
            Connections connections,
            KafkaConsumer<byte[], byte[]> reader,
            CohortName name,
            String cohort,
            long from,
            long to,
            long since) {
        CohortMembers members = new CohortMembers(connections, reader);
        members.scan(connections.config().topics().push(), from, to, record -> {
            if (record.key() != null && cohort.equals(name.of(record.key(), record.value()))) {
                members.trails.putIfAbsent(new String(record.key(), StandardCharsets.UTF_8), new Trail());
            }
        });
        members.scan(connections.config().topics().expired(), since, OffsetRange.OPEN_END, record -> {
            Trail trail = members.trailOf(record);
            TimerExpired expiry = decodeOrNull(() -> JsonCodec.TIMER_EXPIRED.decode(record.value()));
            if (trail != null && expiry != null) {
                trail.expiries++;
                if (trail.lastExpiry == null || expiry.firedAt() >= trail.lastExpiry.firedAt()) {
                    trail.lastExpiry = expiry;
                }
            }
        });
        members.scan(connections.config().topics().pulled(), since, OffsetRange.OPEN_END, record -> {
            Trail trail = members.trailOf(record);
            PullResult pull = decodeOrNull(() -> JsonCodec.PULL_RESULT.decode(record.value()));
            if (trail != null && pull != null) {
                trail.pulls++;
                if (trail.lastPull == null || pull.pulledAt() >= trail.lastPull.pulledAt()) {
                    trail.lastPull = pull;
                }
            }
        });
        return members;
    }

    /** The cohort's orders, by orderId. */
    SortedSet<String> orders() {
        return new TreeSet<>(trails.keySet());
    }

    Trail trail(String orderId) {
        return trails.get(orderId);
    }

    /** How many of the cohort's orders fired since its silence began. */
    long fired() {
        return trails.values().stream().filter(t -> t.expiries > 0).count();
    }

    /** How many of them upstream answered with a status since. */
    long pulled() {
        return trails.values().stream()
                .filter(t -> t.lastPull != null && t.lastPull.outcome() == PullResult.Outcome.OK)
                .count();
    }

    private Trail trailOf(ConsumerRecord<byte[], byte[]> record) {
        return record.key() == null ? null : trails.get(new String(record.key(), StandardCharsets.UTF_8));
    }

    private void scan(String topic, long from, long to, TopicScan.Visitor visit) {
        List<OffsetRange> ranges = OffsetRange.of(reader, topic, Topics.partitions(connections, topic), from, to);
        TopicScan.read(reader, ranges, visit, Progress.NONE, connections.timeout());
    }

    private static <T> T decodeOrNull(Supplier<T> decode) {
        try {
            return decode.get();
        } catch (RuntimeException e) {
            return null; // a dead letter of some service; lapse dlq list shows it
        }
    }
}
