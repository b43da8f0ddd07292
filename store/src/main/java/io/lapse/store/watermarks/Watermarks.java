package io.lapse.store.watermarks;

import io.lapse.config.LapseConfig;
import io.lapse.config.TopicNames;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.internal.RedisTime;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * How far ingest has read the push and pulled topics, in one Redis hash ({@code {prefix}:watermark}):
 * {@code topic/partition} → {@code mark@madeAt}, every record of the partition with a timestamp at or before mark is
 * applied to Redis; {@code topic/*} → {@code partitions@countedAt}, how many partitions the broker listed for the
 * topic. The watermark is the lowest mark over every partition the topics have ({@link WatermarkMinimum}), less a
 * slack for records producers still held back when ingest read past them: no deadline after it may fire, because a
 * status for that order could still be waiting unread in Kafka.
 * <p>
 * Every report was true when it was made and stays true (what Redis applied stays applied), so an old one, of an
 * instance that died or froze, holds the watermark back and never lets anything fire early; {@code madeAt} shows how
 * old it is. Fields of partitions and topics the minimum does not count are left alone, since another deployment
 * with other topic names may share the key prefix; on-call removes them with {@link #forget}.
 */
public final class Watermarks {

    /**
     * How old the oldest report must be for its reader to be taken for away, and the timer to read for it what it has
     * not applied. An ingest at work reports at least every proof, every 20 ms while a deadline is near, so it is never
     * taken for away; half a second is what a silent order's expiry waits at most for an ingest that is.
     */
    public static final long READER_AWAY_MS = 500;

    private final RedisClusterAsyncCommands<String, String> redis;
    private final String key;
    private final List<String> topics;
    private static final String COUNT_SUFFIX = "/*";

    private final long slackMillis;

    /** @param slack how far the watermark stays behind what ingest has read (timer.watermark-slack) */
    public Watermarks(RedisConnection connection, TimerKeys keys, TopicNames topics, Duration slack) {
        this.redis = connection.async();
        this.key = keys.watermarks();
        this.topics =
                List.of(topics.push(), topics.pulled()).stream().distinct().toList();
        this.slackMillis = slack.toMillis();
    }

    /** The watermarks of the configured topics, held back by timer.watermark-slack. */
    public static Watermarks of(RedisConnection connection, TimerKeys keys, LapseConfig config) {
        return new Watermarks(connection, keys, config.topics(), config.timer().watermarkSlack());
    }

    public static String field(String topic, int partition) {
        return topic + "/" + partition;
    }

    public static String countField(String topic) {
        return topic + COUNT_SUFFIX;
    }

    /** Whether a field of the hash holds a topic's partition count rather than a partition's mark. */
    public static boolean isCountField(String field) {
        return field.endsWith(COUNT_SUFFIX);
    }

    /**
     * Redis's clock in ms: the timer compares marks with it, while ingest makes them with its own, so ingest measures
     * how far the two differ.
     */
    public CompletableFuture<Long> redisNow() {
        return RedisTime.now(redis);
    }

    public CompletableFuture<Void> report(WatermarkReport report) {
        if (report.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        Map<String, String> fields = new HashMap<>();
        report.marks()
                .forEach(
                        (partition, mark) -> fields.put(partition, new WatermarkEntry(mark, report.madeAt()).format()));
        report.partitions()
                .forEach((topic, count) ->
                        fields.put(countField(topic), new WatermarkEntry(count, report.countedAt()).format()));
        return redis.hset(key, fields).toCompletableFuture().thenApply(ignored -> null);
    }

    /** Every field of the hash, counted or not, for on-call. */
    public CompletableFuture<Map<String, WatermarkEntry>> all() {
        return redis.hgetall(key)
                .toCompletableFuture()
                .thenApply(fields -> fields.entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, e -> WatermarkEntry.parse(e.getValue()))));
    }

    /** The watermark; empty while some partition of the topics has no report, in which case nothing may fire. */
    public CompletableFuture<OptionalLong> low() {
        return all().thenApply(this::low);
    }

    /** The watermark these fields of the hash make, as {@link #low()} reads it: to tell when it moved, and why. */
    public OptionalLong low(Map<String, WatermarkEntry> fields) {
        OptionalLong low = WatermarkMinimum.of(fields, topics);
        return low.isPresent() ? OptionalLong.of(low.getAsLong() - slackMillis) : low;
    }

    /**
     * When the oldest of the reports that make the watermark was made, by the clock of the ingest that made it; empty
     * while some partition has none. A report of a reader that is at work is never much older than its proofs' cadence.
     */
    public OptionalLong oldestReport(Map<String, WatermarkEntry> fields) {
        return WatermarkMinimum.oldestReport(fields, topics);
    }

    /** Forgets fields, e.g. of partitions of a topic that was recreated with fewer, or of a renamed topic. */
    public CompletableFuture<Long> forget(String... fields) {
        return redis.hdel(key, fields).toCompletableFuture();
    }
}
