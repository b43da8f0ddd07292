package io.lapse.operations;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(
        name = "redrive",
        usageHelpAutoWidth = true,
        header = "Publish dead letters again to the topic they came from, once.",
        description = {
            "Publish the original key and value of dead letters again to the topic they came from, "
                    + "e.g. after a fix that makes them readable. Each original is redriven once.",
            "Every copy carries a header lapse-copy-of: topic/partition@offset of its original. Before publishing, "
                    + "each source topic is read from the oldest selected dead letter on, and an original that "
                    + "already has a copy there is skipped, also when that copy became a dead letter again."
        },
        footer = {
            "%nExamples:",
            "  lapse dlq redrive --reason 'not valid JSON' --since -2h --dry-run",
            "  lapse dlq redrive --reason 'not valid JSON' --since -2h"
        })
public final class DlqRedriveCommand extends OnCallCommand {

    @Mixin
    DeadLetterFilter filter;

    @Mixin
    PublishOptions publishing;

    @Override
    int run(Connections connections) {
        long now = now();
        List<DeadLetterRecord> letters = filter.read(connections, now, progress("reading dead letters", 0));
        Map<String, List<DeadLetterRecord>> bySource = new TreeMap<>();
        long unknownSource = 0;
        for (DeadLetterRecord letter : letters) {
            if (letter.source() == null) {
                unknownSource++;
            } else {
                bySource.computeIfAbsent(letter.source().topic(), t -> new ArrayList<>())
                        .add(letter);
            }
        }
        CopyLedger ledger = new CopyLedger();
        Republisher publisher = publishing.dryRun ? null : new Republisher(connections.producer(), ledger);
        List<String> wouldPublish = new ArrayList<>();
        long topicGone = 0;
        long redrivenBefore = 0;
        for (Map.Entry<String, List<DeadLetterRecord>> topic : bySource.entrySet()) {
            if (!readCopies(connections, topic.getKey(), topic.getValue(), ledger)) {
                topicGone += topic.getValue().size();
                continue;
            }
            for (DeadLetterRecord letter : topic.getValue()) {
                Coordinate origin = ledger.originOf(letter.source());
                if (ledger.holdsCopyOf(origin)) {
                    redrivenBefore++;
                } else if (publishing.dryRun) {
                    ledger.copiedNow(origin);
                    wouldPublish.add(origin + " (dead letter " + letter.at() + ")");
                } else {
                    publisher.send(
                            origin.topic(),
                            letter.originalKey(),
                            letter.letter().originalValue(),
                            null,
                            origin);
                }
            }
        }
        Republisher.Outcome outcome = publisher == null ? new Republisher.Outcome(0, 0, null) : publisher.finish();
        RedriveReport report = new RedriveReport(
                publishing.dryRun,
                letters.size(),
                filter.describe(now),
                redrivenBefore,
                unknownSource,
                topicGone,
                outcome.published(),
                outcome.failed(),
                outcome.firstError(),
                wouldPublish);
        if (publishing.json) {
            Json.print(out(), report);
        } else {
            report.print(out());
        }
        return outcome.failed() > 0 || topicGone > 0 ? Exit.PROBLEM : Exit.OK;
    }

    /** @return false when the topic no longer exists */
    private boolean readCopies(
            Connections connections, String topic, List<DeadLetterRecord> letters, CopyLedger ledger) {
        var partitions = Topics.partitionCount(connections, topic);
        if (partitions.isEmpty()) {
            return false;
        }
        long oldest =
                letters.stream().mapToLong(DeadLetterRecord::timestamp).min().orElse(0);
        try (KafkaConsumer<byte[], byte[]> reader = connections.reader()) {
            List<OffsetRange> ranges =
                    OffsetRange.of(reader, topic, partitions.getAsInt(), oldest, OffsetRange.OPEN_END);
            Progress progress = progress("checking " + topic, TopicScan.total(ranges));
            TopicScan.read(reader, ranges, ledger::note, progress, connections.timeout());
            progress.finish();
        }
        return true;
    }
}
