package io.lapse.operations.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * Dead letters per reason over the last hours, for the Overview's chart: the dead-letter topic's records counted by
 * when each was written, per {@link #BUCKET}. A reason is grouped by its words before the first colon (the kind of
 * failure, not its details, which differ from letter to letter).
 */
final class DeadLettersOverTime {

    static final Duration SPAN = Duration.ofHours(3);
    static final Duration BUCKET = Duration.ofMinutes(5);
    private static final int MAX_KIND = 80;
    private static final ObjectMapper JSON = new ObjectMapper();

    private DeadLettersOverTime() {}

    /** What {@code dlq list --since} gives with a span of {@link #SPAN}, as {@code since} for it. */
    static String since() {
        return "-" + SPAN.toMinutes() + "m";
    }

    /**
     * @param letters dlq list's JSON: each with {@code written} (ms) and {@code reason}
     * @param now     the end of the last bucket
     * @return {bucketMillis, from, reasons: {kind: [count per bucket, oldest first]}}
     */
    static ObjectNode count(JsonNode letters, long now) {
        int buckets = (int) (SPAN.toMillis() / BUCKET.toMillis());
        long from = now - buckets * BUCKET.toMillis();
        Map<String, long[]> counts = new TreeMap<>();
        for (JsonNode letter : letters) {
            long written = letter.path("written").asLong();
            if (written < from || written >= now) {
                continue;
            }
            int bucket = (int) ((written - from) / BUCKET.toMillis());
            counts.computeIfAbsent(kind(letter.path("reason").asText("")), k -> new long[buckets])[bucket]++;
        }
        ObjectNode chart = JSON.createObjectNode()
                .put("bucketMillis", BUCKET.toMillis())
                .put("from", from)
                .put("buckets", buckets);
        ObjectNode reasons = chart.putObject("reasons");
        counts.forEach((kind, perBucket) -> {
            ArrayNode series = reasons.putArray(kind);
            for (long count : perBucket) {
                series.add(count);
            }
        });
        return chart;
    }

    private static String kind(String reason) {
        int colon = reason.indexOf(':');
        String kind = (colon > 0 ? reason.substring(0, colon) : reason).strip();
        kind = kind.isEmpty() ? "no reason" : kind;
        return kind.length() > MAX_KIND ? kind.substring(0, MAX_KIND) + "…" : kind;
    }
}
