package io.lapse.operations.dlq;

import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Exit;
import io.lapse.operations.cli.Json;
import io.lapse.operations.cli.OnCallCommand;
import io.lapse.operations.cli.Progress;
import io.lapse.operations.kafka.Coordinate;
import io.lapse.operations.kafka.OffsetRange;
import io.lapse.operations.kafka.TopicScan;
import io.lapse.operations.kafka.Topics;
import io.lapse.operations.republish.CopyLedger;
import io.lapse.operations.republish.ExpiryPicks;
import io.lapse.operations.republish.PublishOptions;
import io.lapse.operations.republish.Republisher;
import io.lapse.store.timers.TimerStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(
        name = "redrive",
        usageHelpAutoWidth = true,
        header = "Publish dead letters again to the topic they came from, once.",
        description = {
            "Publish the original key and value of dead letters again to the topic they came from, "
                    + "e.g. after a fix that makes them readable. Each original is redriven once.",
            "Every copy carries a header lapse-copy-of: topic/partition@offset of its original, and goes to its "
                    + "original's partition. Before publishing, each partition is read from the oldest original "
                    + "selected there on, and an original that already has a copy is skipped, also when that copy "
                    + "became a dead letter again.",
            "The original is read back from its topic while the broker retains it, and published whole, with its "
                    + "headers and timestamp; else the dead letter's copy of it is, unless the dead letter cut the "
                    + "value (64 KiB at most): such a letter is refused, with its reason, and the exit code is 1.",
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
    protected int run(Connections connections) {
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
        String expired = connections.config().topics().expired();
        ExpiryPicks<DeadLetterRecord> expiries = new ExpiryPicks<>();
        Map<Coordinate, DeadLetterRecord> chosen = new LinkedHashMap<>();
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
                    choose(letter, origin, ledger, chosen);
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
            choose(letter, ledger.originOf(letter.source()), ledger, chosen);
        }
        Map<Coordinate, ConsumerRecord<byte[], byte[]>> originals;
        try (KafkaConsumer<byte[], byte[]> reader = connections.reader()) {
            originals = Originals.read(reader, chosen.keySet(), connections.timeout());
        }
        Republisher publisher = publishing.dryRun ? null : new Republisher(connections.producer(), ledger);
        List<String> wouldPublish = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (Map.Entry<Coordinate, DeadLetterRecord> redrive : chosen.entrySet()) {
            Coordinate origin = redrive.getKey();
            DeadLetterRecord letter = redrive.getValue();
            ConsumerRecord<byte[], byte[]> original = originals.get(origin);
            String where = origin + " (dead letter " + letter.at() + ")";
            if (original == null && letter.isCut()) {
                refused.add(where + ": the dead letter keeps " + letter.keptBytes() + " of the value's "
                        + letter.letter().valueSize() + " bytes, and " + origin.topic()
                        + " no longer holds the original");
            } else if (publisher == null) {
                wouldPublish.add(where);
            } else if (original != null) {
                publisher.send(
                        origin.topic(),
                        origin.partition(),
                        original.key(),
                        original.value(),
                        original.headers(),
                        original.timestamp(),
                        origin);
            } else {
                // the original's own time is lost with it; the dead letter was written right after it was read
                publisher.send(
                        origin.topic(),
                        origin.partition(),
                        letter.originalKey(),
                        letter.letter().originalValue(),
                        null,
                        letter.timestamp(),
                        origin);
            }
        }
        Republisher.Outcome outcome = publisher == null ? new Republisher.Outcome(0, 0, null) : publisher.finish();
        publishing.audit(
                connections, "redrive", "dead letters " + filter.describe(now) + ": published " + outcome.published());
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
                wouldPublish,
                refused);
        if (publishing.json) {
            Json.print(out(), report);
        } else {
            report.print(out());
        }
        return outcome.failed() > 0 || topicGone > 0 || !refused.isEmpty() ? Exit.PROBLEM : Exit.OK;
    }

    /** Redrives the original once, however many dead letters name it. */
    private static void choose(
            DeadLetterRecord letter, Coordinate origin, CopyLedger ledger, Map<Coordinate, DeadLetterRecord> chosen) {
        ledger.copiedNow(origin);
        chosen.put(origin, letter);
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
        // a copy goes to its original's partition, after it: the earliest original named there is where to start
        Map<TopicPartition, Long> earliest = new HashMap<>();
        for (DeadLetterRecord letter : letters) {
            earliest.merge(
                    new TopicPartition(topic, letter.source().partition()),
                    letter.source().offset(),
                    Math::min);
        }
        try (KafkaConsumer<byte[], byte[]> reader = connections.reader()) {
            Map<TopicPartition, Long> ends = reader.endOffsets(earliest.keySet());
            List<OffsetRange> ranges = earliest.entrySet().stream()
                    .map(start -> new OffsetRange(start.getKey(), start.getValue(), ends.get(start.getKey())))
                    .toList();
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
