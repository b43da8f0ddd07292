package io.lapse.operations;

import io.lapse.store.TimerStore;
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
                    + "already has a copy there is skipped, also when that copy became a dead letter again.",
            "Dead letters of expiries (failed pulls) are redriven as lapse replay replays the expired topic: one per "
                    + "order, its newest, and none for an order that has had a status since, so that each order is "
                    + "pulled again once."
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
        String expired = connections.config().topics().expired();
        ExpiryPicks<DeadLetterRecord> expiries = new ExpiryPicks<>();
        List<String> wouldPublish = new ArrayList<>();
        long topicGone = 0;
        long redrivenBefore = 0;
        for (Map.Entry<String, List<DeadLetterRecord>> topic : bySource.entrySet()) {
            boolean ofExpiries = topic.getKey().equals(expired);
            if (!readCopies(connections, topic.getKey(), topic.getValue(), ledger, ofExpiries ? expiries : null)) {
                topicGone += topic.getValue().size();
                continue;
            }
            for (DeadLetterRecord letter : topic.getValue()) {
                Coordinate origin = ledger.originOf(letter.source());
                if (ledger.holdsCopyOf(origin)) {
                    redrivenBefore++;
                } else if (ofExpiries) {
                    expiries.offer(letter, letter.letter().originalValue());
                } else {
                    redrive(letter, origin, ledger, publisher, wouldPublish);
                }
            }
        }
        ExpiryPicks.Selection<DeadLetterRecord> picked = expiries.select(ids -> TimerStore.of(
                        connections.redis(),
                        connections.keys(),
                        connections.config().timer())
                .inspect(ids)
                .join());
        for (ExpiryPicks.Pick<DeadLetterRecord> pick : picked.picks()) {
            DeadLetterRecord letter = pick.carrier();
            redrive(letter, ledger.originOf(letter.source()), ledger, publisher, wouldPublish);
        }
        Republisher.Outcome outcome = publisher == null ? new Republisher.Outcome(0, 0, null) : publisher.finish();
        RedriveReport report = new RedriveReport(
                publishing.dryRun,
                letters.size(),
                filter.describe(now),
                redrivenBefore + picked.replayedBefore(),
                picked.statusSince(),
                picked.superseded(),
                expiries.unreadable(),
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

    private void redrive(
            DeadLetterRecord letter,
            Coordinate origin,
            CopyLedger ledger,
            Republisher publisher,
            List<String> wouldPublish) {
        if (publisher == null) {
            ledger.copiedNow(origin);
            wouldPublish.add(origin + " (dead letter " + letter.at() + ")");
        } else {
            publisher.send(origin.topic(), letter.originalKey(), letter.letter().originalValue(), null, origin);
        }
    }

    /**
     * @param expiries the picks to tell of each copy found, when the topic is the expired one; else null
     * @return false when the topic no longer exists
     */
    private boolean readCopies(
            Connections connections,
            String topic,
            List<DeadLetterRecord> letters,
            CopyLedger ledger,
            ExpiryPicks<DeadLetterRecord> expiries) {
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
            TopicScan.read(
                    reader,
                    ranges,
                    record -> {
                        if (ledger.note(record) && expiries != null) {
                            expiries.noteCopy(record.value());
                        }
                    },
                    progress,
                    connections.timeout());
            progress.finish();
        }
        return true;
    }
}
