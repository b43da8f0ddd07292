package io.lapse.operations.replay;

import io.lapse.operations.cli.Arguments;
import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Exit;
import io.lapse.operations.cli.Json;
import io.lapse.operations.cli.OnCallCommand;
import io.lapse.operations.cli.OnCallEnvironment;
import io.lapse.operations.cli.OnCallError;
import io.lapse.operations.cli.Progress;
import io.lapse.operations.cli.Show;
import io.lapse.operations.kafka.OffsetRange;
import io.lapse.operations.kafka.TopicScan;
import io.lapse.operations.kafka.Topics;
import io.lapse.operations.republish.CopyLedger;
import io.lapse.operations.republish.ExpiryPicks;
import io.lapse.operations.republish.PublishOptions;
import io.lapse.operations.republish.Republisher;
import io.lapse.store.timers.TimerStore;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "replay",
        sortOptions = false,
        usageHelpAutoWidth = true,
        header = "Re-publish a time range of a topic, each record once.",
        description = {
            "Re-publish the records a topic received in a time range, e.g. to pull again the orders whose "
                    + "pulls failed while upstream was down.",
            "On the expired topic (topics.expired) each order is re-published once, with its newest expiry in the "
                    + "range, and orders that have had a status since are left out.",
            "Every copy carries a header lapse-copy-of: topic/partition@offset of its original. Before publishing, "
                    + "the target topic is read from --from on, and what it already holds a copy of is skipped: "
                    + "a run can be interrupted and run again, and publishes nothing twice."
        },
        footer = {
            "%nExamples:",
            "  # pull again what expired during an upstream outage; look first:",
            "  lapse replay --topic charging.timer.expired \\",
            "      --from 2026-11-23T04:00:00Z --to 2026-11-23T04:30:00Z --dry-run",
            "  lapse replay --topic charging.timer.expired --from -45m --to -15m",
            "  # one order's pushes of the last hour, into a scratch topic:",
            "  lapse replay --topic charging.status.push --from -1h --key 123456 \\",
            "      --to-topic scratch.push"
        })
public final class ReplayCommand extends OnCallCommand {

    @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "Topic to read.")
    String topic;

    @Option(
            names = "--from",
            required = true,
            paramLabel = "TIME",
            description = "Start of the range: ISO-8601 (2026-11-23T04:00:00Z) or relative to now (-30m).")
    String from;

    @Option(
            names = "--to",
            defaultValue = "now",
            paramLabel = "TIME",
            description = "End of the range (${DEFAULT-VALUE}).")
    String to;

    @Option(names = "--key", paramLabel = "ORDER", description = "Only the records of this order.")
    String key;

    @Option(names = "--to-topic", paramLabel = "TOPIC", description = "Publish here instead of to --topic.")
    String toTopic;

    @Mixin
    PublishOptions publishing;

    /**
     * Draws the progress to this command's stderr whether or not it is a terminal: the console runs a replay in its
     * own process and shows that line on its page while the replay runs.
     */
    public ReplayCommand drawingProgress() {
        environment = new OnCallEnvironment(environment.env(), environment.clock(), true);
        return this;
    }

    @Override
    protected int run(Connections connections) {
        long started = now();
        long start = Arguments.pastTime("--from", from, started);
        long end = Arguments.time("--to", to, started);
        if (start >= end) {
            throw new OnCallError("--from " + Show.time(start) + " is not before --to " + Show.time(end));
        }
        byte[] order = key == null ? null : Arguments.orderId(key).getBytes(StandardCharsets.UTF_8);
        String target = toTopic == null ? topic : toTopic;
        int partitions = Topics.partitions(connections, topic);
        int targetPartitions = Topics.partitions(connections, target);
        boolean expiries = topic.equals(connections.config().topics().expired());
        CopyLedger ledger = new CopyLedger();
        ReplayRun replay = new ReplayRun(
                target,
                order,
                expiries ? new ExpiryPicks<>() : null,
                publishing.dryRun ? null : new Republisher(connections.producer(), ledger),
                ledger);
        try (KafkaConsumer<byte[], byte[]> reader = connections.reader()) {
            scan(
                    connections,
                    reader,
                    target,
                    targetPartitions,
                    start,
                    OffsetRange.OPEN_END,
                    "checking " + target,
                    replay::noteTarget);
            // records out of timestamp order can sit among the range's offsets: the range is by timestamp
            scan(connections, reader, topic, partitions, start, end, "replaying " + topic, record -> {
                if (record.timestamp() >= start && record.timestamp() < end) {
                    replay.offer(record);
                }
            });
        }
        if (expiries) {
            TimerStore store = TimerStore.of(
                    connections.redis(),
                    connections.keys(),
                    connections.config().timer());
            Progress progress = progress("publishing to " + target, 0);
            replay.publishPicks(ids -> store.inspect(ids).join(), progress);
            progress.finish();
        }
        ReplayReport report = replay.finish(topic, Show.time(start), Show.time(end), key, now() - started);
        publishing.audit(
                connections,
                "replay",
                topic + " from " + Show.time(start) + " to " + Show.time(end) + (key == null ? "" : " key " + key)
                        + (toTopic == null ? "" : " to " + toTopic) + ": published " + report.published());
        if (publishing.json) {
            Json.print(out(), report);
        } else {
            report.print(out());
        }
        return report.failed() > 0 ? Exit.PROBLEM : Exit.OK;
    }

    private void scan(
            Connections connections,
            KafkaConsumer<byte[], byte[]> reader,
            String name,
            int partitions,
            long start,
            long end,
            String label,
            TopicScan.Visitor visitor) {
        List<OffsetRange> ranges = OffsetRange.of(reader, name, partitions, start, end);
        Progress progress = progress(label, TopicScan.total(ranges));
        TopicScan.read(reader, ranges, visitor, progress, connections.timeout());
        progress.finish();
    }
}
