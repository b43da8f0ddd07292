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
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * Which orders are in one cohort, and what happened to them since its silence began, read from the topics: the
 * cohort's orders are those whose pushes within a bounded time range name it (with the same {@link CohortName} ingest
 * counts them by), and each one's expiries and pull results since are counted. Only the cohort's orders are kept, so
 * memory grows with the cohort, not with the fleet.
 */
final class CohortMembers {

    /** How many events of one kind an order has, and its newest. */
    static final class Newest<T> {
        private int count;
        private T newest;
        private long at = Long.MIN_VALUE;

        void add(T event, long time) {
            count++;
            if (time >= at) {
                newest = event;
                at = time;
            }
        }

        int count() {
            return count;
        }

        /** null when there is none */
        T newest() {
            return newest;
        }
    }

    /** What the expired and pulled topics hold of one order of the cohort since its silence began. */
    record Trail(Newest<TimerExpired> expiries, Newest<PullResult> pulls) {

        Trail() {
            this(new Newest<>(), new Newest<>());
        }
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
        members.tally(
                connections.config().topics().expired(),
                since,
                JsonCodec.TIMER_EXPIRED::decode,
                (trail, expiry) -> trail.expiries().add(expiry, expiry.firedAt()));
        members.tally(
                connections.config().topics().pulled(),
                since,
                JsonCodec.PULL_RESULT::decode,
                (trail, pull) -> trail.pulls().add(pull, pull.pulledAt()));
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
        return trails.values().stream().filter(t -> t.expiries().count() > 0).count();
    }

    /** How many of them upstream answered with a status since. */
    long pulled() {
        return trails.values().stream()
                .filter(t -> t.pulls().newest() != null && t.pulls().newest().outcome() == PullResult.Outcome.OK)
                .count();
    }

    /** Adds each event of the cohort's orders on the topic since {@code since} to its order's trail. */
    private <T> void tally(String topic, long since, Function<byte[], T> decode, BiConsumer<Trail, T> add) {
        scan(topic, since, OffsetRange.OPEN_END, record -> {
            Trail trail = record.key() == null ? null : trails.get(new String(record.key(), StandardCharsets.UTF_8));
            if (trail != null) {
                T event = decodeOrNull(record, decode);
                if (event != null) {
                    add.accept(trail, event);
                }
            }
        });
    }

    private void scan(String topic, long from, long to, TopicScan.Visitor visit) {
        List<OffsetRange> ranges = OffsetRange.of(reader, topic, Topics.partitions(connections, topic), from, to);
        TopicScan.read(reader, ranges, visit, Progress.NONE, connections.timeout());
    }

    private static <T> T decodeOrNull(ConsumerRecord<byte[], byte[]> record, Function<byte[], T> decode) {
        try {
            return decode.apply(record.value());
        } catch (RuntimeException e) {
            return null; // a dead letter of some service; lapse dlq list shows it
        }
    }
}
