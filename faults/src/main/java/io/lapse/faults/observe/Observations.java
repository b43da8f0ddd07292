package io.lapse.faults.observe;

import io.lapse.config.TopicNames;
import io.lapse.event.DeadLetter;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.StatusHeader;
import io.lapse.event.TimerExpired;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What Kafka holds of one generation's topics, read back as it is written: every push (the truth about which orders
 * spoke when), every expiry, every pull result and every dead letter. Records that do not decode (the poison) are not
 * kept; the dead letters say what became of them.
 */
public final class Observations implements AutoCloseable {

    private final TopicTap<Seen.Push> pushes;
    private final TopicTap<Seen.Expiry> expiries;
    private final TopicTap<Seen.Pull> pulls;
    private final TopicTap<Seen.DeadLetter> deadLetters;
    private final Set<String> spoke = ConcurrentHashMap.newKeySet();
    private final Set<String> expired = ConcurrentHashMap.newKeySet();
    private final Set<String> answered = ConcurrentHashMap.newKeySet();

    /** @param terminal whether a status ends an order's watch */
    public Observations(String bootstrapServers, TopicNames topics, int partitions, Predicate<String> terminal) {
        this.pushes = TopicTap.start(
                bootstrapServers, topics.push(), partitions, noting(spoke, record -> push(record, terminal)));
        this.expiries =
                TopicTap.start(bootstrapServers, topics.expired(), partitions, noting(expired, Observations::expiry));
        this.pulls = TopicTap.start(
                bootstrapServers, topics.pulled(), partitions, noting(answered, record -> pull(record, terminal)));
        this.deadLetters = TopicTap.start(bootstrapServers, topics.dlq(), partitions, Observations::deadLetter);
    }

    private static <T extends Seen.OfOrder> Function<ConsumerRecord<byte[], byte[]>, T> noting(
            Set<String> orders, Function<ConsumerRecord<byte[], byte[]>, T> decoder) {
        return record -> {
            T seen = decoder.apply(record);
            if (seen != null) {
                orders.add(seen.orderId());
            }
            return seen;
        };
    }

    private static Seen.Push push(ConsumerRecord<byte[], byte[]> record, Predicate<String> terminal) {
        StatusHeader status = JsonCodec.STATUS_HEADER.decode(record.value());
        long ts = status.ts() != null ? status.ts() : record.timestamp();
        return new Seen.Push(status.orderId(), ts, terminal.test(status.status()));
    }

    private static Seen.Expiry expiry(ConsumerRecord<byte[], byte[]> record) {
        TimerExpired expiry = JsonCodec.TIMER_EXPIRED.decode(record.value());
        return new Seen.Expiry(
                expiry.orderId(),
                expiry.deadline(),
                expiry.lastSeen(),
                expiry.attempt(),
                expiry.source().name().toLowerCase(Locale.ROOT),
                record.timestamp());
    }

    private static Seen.Pull pull(ConsumerRecord<byte[], byte[]> record, Predicate<String> terminal) {
        PullResult result = JsonCodec.PULL_RESULT.decode(record.value());
        return result.expiry() == null
                ? null
                : new Seen.Pull(
                        result.orderId(),
                        result.expiry().deadline(),
                        result.expiry().attempt(),
                        result.outcome().name(),
                        result.status() == null ? null : result.status().ts(),
                        result.status() != null && terminal.test(result.status().status()),
                        record.timestamp());
    }

    private static Seen.DeadLetter deadLetter(ConsumerRecord<byte[], byte[]> record) {
        DeadLetter letter = JsonCodec.DEAD_LETTER.decode(record.value());
        return new Seen.DeadLetter(
                new RecordRef(letter.sourceTopic(), letter.partition(), letter.offset()),
                letter.key(),
                letter.reason(),
                record.timestamp());
    }

    /** Whether every one of these orders has a push in Kafka. */
    public boolean allSpoke(Collection<String> orders) {
        return spoke.containsAll(orders);
    }

    /** Whether every one of these orders has an expiry and a pull result in Kafka. */
    public boolean allExpiredAndAnswered(Collection<String> orders) {
        return expired.containsAll(orders) && answered.containsAll(orders);
    }

    /** The event time of each of these orders' newest push read back so far; orders without one are left out. */
    public Map<String, Long> newestPushes(Collection<String> orders) {
        Set<String> wanted = Set.copyOf(orders);
        Map<String, Long> newest = new HashMap<>();
        for (Seen.Push push : pushes.seen()) {
            if (wanted.contains(push.orderId())) {
                newest.merge(push.orderId(), push.ts(), Math::max);
            }
        }
        return newest;
    }

    public List<Seen.Push> pushes() {
        return pushes.seen();
    }

    public List<Seen.Expiry> expiries() {
        return expiries.seen();
    }

    public List<Seen.Pull> pulls() {
        return pulls.seen();
    }

    public List<Seen.DeadLetter> deadLetters() {
        return deadLetters.seen();
    }

    /** @return whether every topic was read up to its end at the time of the call, within the timeout */
    public boolean awaitCaughtUp(Admin admin, Duration timeout) {
        return List.of(pushes, expiries, pulls, deadLetters).stream()
                .allMatch(tap -> tap.awaitCaughtUp(admin, timeout));
    }

    @Override
    public void close() {
        List.of(pushes, expiries, pulls, deadLetters).forEach(TopicTap::close);
    }
}
