package io.lapse.operations.dlq;

import io.lapse.operations.cli.Arguments;
import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.OnCallError;
import io.lapse.operations.cli.Progress;
import io.lapse.operations.cli.Show;
import io.lapse.operations.kafka.Coordinate;
import io.lapse.operations.kafka.OffsetRange;
import io.lapse.operations.kafka.TopicScan;
import io.lapse.operations.kafka.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.LongSummaryStatistics;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import picocli.CommandLine.Option;

/** Which dead letters a dlq command looks at: --since, --reason and --at. */
public final class DeadLetterFilter {

    @Option(
            names = "--since",
            paramLabel = "TIME",
            description = "Only dead letters written since then: ISO-8601 or relative (-2h); default: all.")
    String since;

    @Option(
            names = "--reason",
            paramLabel = "TEXT",
            description = "Only dead letters whose reason contains this " + "(ignoring case).")
    String reason;

    @Option(
            names = "--at",
            paramLabel = "WHERE",
            split = ",",
            description = "Only these dead letters, as dlq list shows where they are (topic/partition@offset); "
                    + "repeat or separate with commas.")
    List<String> at;

    long sinceMillis(long now) {
        return since == null ? 0 : Arguments.pastTime("--since", since, now);
    }

    String describe(long now) {
        return (since == null ? "" : " since " + Show.time(sinceMillis(now)))
                + (reason == null ? "" : " with a reason containing '" + reason + "'")
                + (at == null ? "" : " at " + String.join(", ", at));
    }

    /** @return null for any dead letter */
    private Set<Coordinate> places() {
        if (at == null) {
            return null;
        }
        return at.stream()
                .map(String::strip)
                .map(text -> {
                    Coordinate place = Coordinate.parse(text);
                    if (place == null) {
                        throw new OnCallError("--at: '" + text + "' is not topic/partition@offset");
                    }
                    return place;
                })
                .collect(Collectors.toSet());
    }

    /** Only the offsets from the first to the last dead letter named in each partition: a few, not the whole topic. */
    private static List<OffsetRange> narrowed(List<OffsetRange> ranges, Set<Coordinate> places) {
        return ranges.stream()
                .map(range -> {
                    LongSummaryStatistics named = places.stream()
                            .filter(place -> place.topic()
                                            .equals(range.partition().topic())
                                    && place.partition() == range.partition().partition())
                            .mapToLong(Coordinate::offset)
                            .summaryStatistics();
                    return named.getCount() == 0
                            ? new OffsetRange(range.partition(), range.start(), range.start())
                            : new OffsetRange(
                                    range.partition(),
                                    Math.max(range.start(), named.getMin()),
                                    Math.min(range.end(), named.getMax() + 1));
                })
                .toList();
    }

    /** The matching dead letters, oldest first per partition. */
    List<DeadLetterRecord> read(Connections connections, long now, Progress progress) {
        String topic = connections.config().topics().dlq();
        int partitions = Topics.partitions(connections, topic);
        String wanted = reason == null ? null : reason.toLowerCase(Locale.ROOT);
        Set<Coordinate> places = places();
        List<DeadLetterRecord> found = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> reader = connections.reader()) {
            long from = sinceMillis(now);
            List<OffsetRange> ranges = OffsetRange.of(reader, topic, partitions, from, OffsetRange.OPEN_END);
            if (places != null) {
                ranges = narrowed(ranges, places);
            }
            TopicScan.read(
                    reader,
                    ranges,
                    record -> {
                        DeadLetterRecord letter = DeadLetterRecord.of(record);
                        if (record.timestamp() >= from
                                && (places == null || places.contains(letter.at()))
                                && (wanted == null
                                        || letter.reason()
                                                .toLowerCase(Locale.ROOT)
                                                .contains(wanted))) {
                            found.add(letter);
                        }
                    },
                    progress,
                    connections.timeout());
        }
        progress.finish();
        return found;
    }
}
