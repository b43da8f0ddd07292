package io.lapse.faults.soak.judge;

import io.lapse.event.JsonCodec;
import io.lapse.event.TimerExpired;
import io.lapse.lifecycle.ServiceLoop;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Judges every expiry against the pushes on the push topic, and every silent order against its expiries, from the
 * topics and what the generator says, never from Lapse's own counters. One thread reads both topics from their
 * beginning without a group. Kafka's times are the yardstick: a push's CreateTime (its producer stamps it as the
 * generator sends it, a moment after its {@code ts}) and an expiry's LogAppendTime (when it reached Kafka).
 * <p>
 * An expiry appended at T is judged once every push partition has been read up to T: it is false when its order has a
 * push in (deadline - ttl + half a push interval, deadline], a push newer than the one the deadline counts from, so
 * the order was not silent for a ttl at the deadline the expiry names. Half an interval apart: a push's CreateTime
 * comes a little after its {@code ts} (the producer stamps it as it sends), and the next push a whole interval later.
 * A push that came after the deadline but before the expiry reached Kafka does not make it false: the order was
 * silent, and a loaded generator sends its pushes late. An expiry revives a finished order when the generator
 * finished that order with a terminal push more than a push interval before its deadline (the terminal push goes out
 * at the order's phase of the round, up to a push interval after the finish, and a deadline that came before it fired
 * rightly: after a storm many do). A silent order is judged once the expiries are read up to its deadline (its last
 * push + ttl) plus the grace: fired when its first expiry came by then, missed otherwise. Per order the judge keeps
 * the last {@value #KEPT_PUSHES} push times: enough while expiries reach Kafka within that many push intervals of their
 * deadlines.
 */
public final class Judge implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(100);
    static final int KEPT_PUSHES = 6;

    private record Expiry(String orderId, long appendedAt, long deadline) {}

    private record Told(String orderId, boolean silenced, long at) {}

    private final String pushTopic;
    private final long ttlMillis;
    private final long graceMillis;
    private final long pushIntervalMillis;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> pushPartitions;
    private final List<TopicPartition> expiredPartitions;
    private final Map<TopicPartition, Long> newest = new HashMap<>();
    private final Queue<Told> told = new ConcurrentLinkedQueue<>();
    private final ServiceLoop loop;

    // the judge thread's own
    private final Map<String, RecentPushes> lastPushes = new HashMap<>();
    private final Map<String, Long> finishedAt = new HashMap<>();
    private final Set<String> silent = new HashSet<>();
    /** Silent orders not judged yet, with the time their first expiry was appended (0: none yet). */
    private final Map<String, Long> firstExpiry = new HashMap<>();

    private final List<Expiry> unjudged = new ArrayList<>();
    private long expiries;
    private long falseExpiries;
    private long revived;
    private long fired;
    private long missed;

    // read by the sampler: guarded by this
    private final List<long[]> lateness = new ArrayList<>();
    private Verdicts verdicts = Verdicts.NONE;

    public Judge(
            String bootstrapServers,
            String pushTopic,
            String expiredTopic,
            int partitions,
            Duration ttl,
            Duration grace,
            Duration pushInterval) {
        this.pushTopic = pushTopic;
        this.ttlMillis = ttl.toMillis();
        this.graceMillis = grace.toMillis();
        this.pushIntervalMillis = pushInterval.toMillis();
        this.pushPartitions = partitions(pushTopic, partitions);
        this.expiredPartitions = partitions(expiredTopic, partitions);
        // fetches of 256 KB or 200 ms, as a reader built for throughput would: the judge shares the box with what it
        // judges, and a fetch per few records costs it and the broker CPU the services need
        this.consumer = ByteConsumers.create(
                bootstrapServers,
                Map.of(
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        20_000,
                        ConsumerConfig.FETCH_MIN_BYTES_CONFIG,
                        256 * 1024,
                        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
                        200));
        List<TopicPartition> all = Stream.concat(pushPartitions.stream(), expiredPartitions.stream())
                .toList();
        consumer.assign(all);
        consumer.seekToBeginning(all);
        this.loop = new ServiceLoop(
                "soak-judge", this::pollOnce, consumer::wakeup, () -> consumer.close(Duration.ofSeconds(5)));
    }

    private static List<TopicPartition> partitions(String topic, int count) {
        return IntStream.range(0, count)
                .mapToObj(p -> new TopicPartition(topic, p))
                .toList();
    }

    public void start() {
        loop.start();
    }

    /** The generator silenced this order (from now on it pushes no more). Any thread. */
    public void silenced(String orderId) {
        told.add(new Told(orderId, true, System.currentTimeMillis()));
    }

    /** The generator finished this order: with a terminal push unless it was silent. Any thread. */
    public void finished(String orderId) {
        told.add(new Told(orderId, false, System.currentTimeMillis()));
    }

    private void pollOnce() {
        long polledAt = System.currentTimeMillis();
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            newest.merge(partition, record.timestamp(), Math::max);
            if (record.topic().equals(pushTopic)) {
                push(record);
            } else {
                expiry(record);
            }
        }
        for (Told t; (t = told.poll()) != null; ) {
            if (t.silenced()) {
                silent.add(t.orderId());
                firstExpiry.put(t.orderId(), 0L);
            } else if (!silent.contains(t.orderId())) {
                finishedAt.put(t.orderId(), t.at());
            }
        }
        long pushesReadTo = readTo(pushPartitions, polledAt);
        long expiriesReadTo = readTo(expiredPartitions, polledAt);
        judgeExpiries(pushesReadTo);
        judgeSilent(pushesReadTo, expiriesReadTo);
    }

    /** The time up to which every partition has been read: to the poll's start where it is read to the end. */
    private long readTo(List<TopicPartition> partitions, long polledAt) {
        long readTo = polledAt;
        for (TopicPartition partition : partitions) {
            OptionalLong lag = consumer.currentLag(partition);
            if (lag.isEmpty() || lag.getAsLong() > 0) {
                readTo = Math.min(readTo, newest.getOrDefault(partition, 0L));
            }
        }
        return readTo;
    }

    private void push(ConsumerRecord<byte[], byte[]> record) {
        if (record.key() == null) {
            return;
        }
        lastPushes
                .computeIfAbsent(new String(record.key(), StandardCharsets.UTF_8), k -> new RecentPushes(KEPT_PUSHES))
                .add(record.timestamp());
    }

    private void expiry(ConsumerRecord<byte[], byte[]> record) {
        TimerExpired expiry;
        try {
            expiry = JsonCodec.TIMER_EXPIRED.decode(record.value());
        } catch (RuntimeException e) {
            return;
        }
        expiries++;
        unjudged.add(new Expiry(expiry.orderId(), record.timestamp(), expiry.deadline()));
        Long first = firstExpiry.get(expiry.orderId());
        if (first != null && (first == 0 || record.timestamp() < first)) {
            firstExpiry.put(expiry.orderId(), record.timestamp());
        }
        if (silent.contains(expiry.orderId())) {
            synchronized (this) {
                lateness.add(new long[] {record.timestamp(), record.timestamp() - expiry.deadline()});
            }
        }
    }

    private void judgeExpiries(long pushesReadTo) {
        unjudged.removeIf(expiry -> {
            if (expiry.appendedAt() > pushesReadTo) {
                return false;
            }
            RecentPushes pushes = lastPushes.get(expiry.orderId());
            if (pushes != null
                    && pushes.anyIn(expiry.deadline() - ttlMillis + pushIntervalMillis / 2, expiry.deadline())) {
                falseExpiries++;
            }
            Long finished = finishedAt.get(expiry.orderId());
            if (finished != null && finished + pushIntervalMillis < expiry.deadline()) {
                revived++;
            }
            return true;
        });
    }

    private void judgeSilent(long pushesReadTo, long expiriesReadTo) {
        firstExpiry.entrySet().removeIf(order -> {
            RecentPushes pushes = lastPushes.get(order.getKey());
            long due = pushes == null ? Long.MAX_VALUE : pushes.last() + ttlMillis + graceMillis;
            if (due > expiriesReadTo || due > pushesReadTo) {
                return false;
            }
            long first = order.getValue();
            if (first != 0 && first <= due) {
                fired++;
            } else {
                missed++;
            }
            return true;
        });
        synchronized (this) {
            verdicts = new Verdicts(expiries, falseExpiries, revived, silent.size(), fired, missed, firstExpiry.size());
        }
    }

    public synchronized Verdicts verdicts() {
        return verdicts;
    }

    /** Lateness in ms of the silent orders' expiries appended in [from, to), epoch ms. */
    public synchronized long[] lateness(long from, long to) {
        return lateness.stream()
                .filter(l -> l[0] >= from && l[0] < to)
                .mapToLong(l -> l[1])
                .toArray();
    }

    public synchronized long[] allLateness() {
        return lateness.stream().mapToLong(l -> l[1]).toArray();
    }

    @Override
    public void close() {
        loop.close();
    }
}
