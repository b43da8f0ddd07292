package io.lapse.operations;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import picocli.CommandLine.Option;

/** Which dead letters a dlq command looks at: --since and --reason. */
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

    long sinceMillis(long now) {
        return since == null ? 0 : Arguments.pastTime("--since", since, now);
    }

    String describe(long now) {
        return (since == null ? "" : " since " + Show.time(sinceMillis(now)))
                + (reason == null ? "" : " with a reason containing '" + reason + "'");
    }

    /** The matching dead letters, oldest first per partition. */
    List<DeadLetterRecord> read(Connections connections, long now, Progress progress) {
        String topic = connections.config().topics().dlq();
        int partitions = Topics.partitions(connections, topic);
        String wanted = reason == null ? null : reason.toLowerCase(Locale.ROOT);
        List<DeadLetterRecord> found = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> reader = connections.reader()) {
            long from = sinceMillis(now);
            List<OffsetRange> ranges = OffsetRange.of(reader, topic, partitions, from, OffsetRange.OPEN_END);
            TopicScan.read(
                    reader,
                    ranges,
                    record -> {
                        DeadLetterRecord letter = DeadLetterRecord.of(record);
                        if (record.timestamp() >= from
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
