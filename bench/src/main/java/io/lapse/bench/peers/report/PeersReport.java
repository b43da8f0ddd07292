package io.lapse.bench.peers.report;

import io.lapse.bench.peers.run.Peer;
import io.lapse.bench.peers.run.PeerResult;
import io.lapse.bench.peers.run.PeersOptions;
import io.lapse.bench.peers.run.SizeResult;
import io.lapse.bench.peers.system.LatenessParts;
import io.lapse.bench.peers.system.ProbeCost;
import io.lapse.bench.report.MarkdownTable;
import io.lapse.bench.report.ReportFormat;
import io.lapse.config.Durations;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** The Markdown report of {@code ./lapse bench peers}: a table per size, the Kafka hop, the lateness ratio. */
public final class PeersReport {

    private static final double GOAL = 3.0;

    private PeersReport() {}

    public static String markdown(PeersOptions options, List<SizeResult> sizes, List<String> plots, Duration took) {
        StringBuilder out = new StringBuilder("# Lapse beside its peers\n\n");
        out.append("- date: ")
                .append(ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss z")))
                .append("; machine: ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, ")
                .append(System.getProperty("os.name"))
                .append(' ')
                .append(System.getProperty("os.version"))
                .append(", ")
                .append(System.getProperty("java.vm.name"))
                .append(' ')
                .append(Runtime.version())
                .append("; Kafka broker in this JVM, a fresh redis-server per run\n");
        out.append("- workload: every entity re-arms every ")
                .append(Durations.format(options.cadence()))
                .append(" with deadline now + ")
                .append(Durations.format(options.deadline()))
                .append("; ")
                .append(Math.round(options.silentFraction() * 100))
                .append(" % go silent, each at a random moment within one cadence; missed = not fired within ")
                .append(Durations.format(options.grace()))
                .append(" of its deadline\n");
        out.append("- lateness: from the silent entity's deadline (its last re-arm + T) to the moment the application"
                + " learns of the fire (the Redis client receiving it, or the consumer of Lapse's expired topic"
                + " polling it)\n");
        out.append(
                "- CPU in cores over the run: server = the system's redis-server; JVM = this benchmark's process"
                        + " (driver, clients, and for Lapse its ingest and timer; the idle broker is in it for every system)\n");
        for (SizeResult size : sizes) {
            out.append('\n').append(section(size));
        }
        if (!plots.isEmpty()) {
            out.append("\nPlots: ").append(String.join(", ", plots)).append('\n');
        }
        out.append(ReportFormat.totalRunTime(took));
        return out.toString();
    }

    private static String section(SizeResult size) {
        StringBuilder out = new StringBuilder("## ")
                .append(ReportFormat.count(size.entities()))
                .append(" entities (")
                .append(ReportFormat.count(Math.round(size.needed())))
                .append(" re-arms/s needed)\n\n");
        MarkdownTable table = new MarkdownTable(
                "system",
                "re-arms/s",
                "fired / silent",
                "missed",
                "false",
                "lateness p50",
                "p99",
                "max",
                "server CPU",
                "JVM CPU",
                "bytes/entity");
        for (PeerResult run : size.peers()) {
            table.row(row(run));
        }
        out.append(table);
        for (PeerResult run : size.peers()) {
            if (run.parts() != null && run.parts().toClaim().getTotalCount() > 0 && run.keptUp()) {
                out.append('\n').append(parts(run.system(), run.parts()));
            }
        }
        out.append('\n').append(hop(size)).append('\n');
        size.latenessRatio()
                .ifPresent(ratio -> out.append("\nLateness ratio (issue 20): Lapse zset p99 ÷ (Kafka hop p99 + ideal"
                                + " poller p99) = ")
                        .append(ratioLine(size, ratio))
                        .append('\n'));
        return out.toString();
    }

    /** Where one Lapse run's lateness went; the parts' percentiles are each their own, so they do not add up. */
    static String parts(String system, LatenessParts parts) {
        MarkdownTable table = new MarkdownTable("part", "p50", "p99", "max");
        table.row(part("deadline → the watermark reached it", parts.toWatermark()));
        table.row(new String[] {
            "… timer.watermark-slack",
            ReportFormat.millis(parts.slackMillis()),
            ReportFormat.millis(parts.slackMillis()),
            ReportFormat.millis(parts.slackMillis())
        });
        table.row(part("… the lateness allowance then", parts.heldBack()));
        table.row(part("… deadline + slack + allowance → ingest asked the broker", parts.toQuestion()));
        table.row(part("… asked → the report carrying the answer made", parts.toReport()));
        table.row(part("… … of which the broker's answer (every question)", parts.roundTrip()));
        table.row(part("… report made → in Redis", parts.toRedis()));
        table.row(part("watermark reached it → timer's claim in Redis", parts.toClaim()));
        table.row(part("claim → handed to the producer", parts.toSend()));
        table.row(part("handed to the producer → read by the benchmark", parts.toRead()));
        ProbeCost cost = parts.probeCost();
        StringBuilder out = new StringBuilder(system)
                .append(": where the lateness went, over ")
                .append(ReportFormat.count(parts.toClaim().getTotalCount()))
                .append(" first expiries (the watermark read from Redis every millisecond beside the run")
                .append(parts.unsampled() > 0 ? "; " + ReportFormat.count(parts.unsampled()) + " not seen by it" : "")
                .append("):\n\n")
                .append(table)
                .append(String.format(
                        Locale.ROOT,
                        "%nThe proof's cost over the run: ingest asked the broker %.0f times/s; the broker served %.0f"
                                + " ListOffsets and %.0f DescribeTopicPartitions requests/s (every client's); ingest's loop thread"
                                + " used %.3f cores, its admin client's thread %.3f, the broker's request threads"
                                + " %.3f%n",
                        cost.questionsPerSecond(),
                        cost.listOffsetsPerSecond(),
                        cost.describeTopicsPerSecond(),
                        cost.ingestLoopCores(),
                        cost.adminClientCores(),
                        cost.brokerCores()))
                .append(String.format(
                        Locale.ROOT,
                        "%nRecords that arrived behind their partition's mark (what timer.watermark-slack covers): %s;"
                                + " p50 %s, p99 %s, p99.9 %s, max %.1f ms%n",
                        ReportFormat.count(parts.behindMark().getTotalCount()),
                        ReportFormat.millis(parts.behindMark().getValueAtPercentile(50)),
                        ReportFormat.millis(parts.behindMark().getValueAtPercentile(99)),
                        ReportFormat.millis(parts.behindMark().getValueAtPercentile(99.9)),
                        parts.behindMarkMax()));
        return out.toString();
    }

    private static String[] part(String name, Histogram millis) {
        return new String[] {
            name,
            ReportFormat.millis(millis.getValueAtPercentile(50)),
            ReportFormat.millis(millis.getValueAtPercentile(99)),
            ReportFormat.millis(millis.getMaxValue())
        };
    }

    private static String[] row(PeerResult run) {
        if (run.failure() != null) {
            String[] cells = blank(run.system());
            cells[1] = run.failure();
            return cells;
        }
        if (!run.keptUp()) {
            String[] cells = blank(run.system());
            cells[1] = "cannot keep up: fell " + ReportFormat.millis(run.behindMaxMillis()) + " behind; re-arms/s "
                    + thousands(run.sustained()) + " of " + thousands(run.needed()) + " over the run";
            return cells;
        }
        Histogram lateness = run.lateness();
        boolean any = lateness.getTotalCount() > 0;
        return new String[] {
            run.system(),
            ReportFormat.count(Math.round(run.sustained())),
            ReportFormat.count(run.fired()) + " / " + ReportFormat.count(run.silent()),
            ReportFormat.count(run.missed()),
            ReportFormat.count(run.falseFires()),
            any ? ReportFormat.millis(lateness.getValueAtPercentile(50)) : "—",
            any ? ReportFormat.millis(lateness.getValueAtPercentile(99)) : "—",
            any ? ReportFormat.millis(lateness.getMaxValue()) : "—",
            cores(run.serverCpu()),
            cores(run.jvmCpu()),
            ReportFormat.count(run.bytesPerEntity())
        };
    }

    /** A row that says only what happened, in its second cell. */
    private static String[] blank(String system) {
        String[] cells = new String[11];
        Arrays.fill(cells, "");
        cells[0] = system;
        return cells;
    }

    private static String hop(SizeResult size) {
        if (size.hop() == null) {
            return "Kafka hop alone: not measured (" + size.hopFailure() + ")";
        }
        return "Kafka hop alone (produce → consume, acks=1 and linger 5 ms as the pushes to Lapse, at "
                + ReportFormat.count(Math.round(size.needed())) + " records/s): p50 "
                + ReportFormat.millis(size.hop().getValueAtPercentile(50)) + ", p99 "
                + ReportFormat.millis(size.hop().getValueAtPercentile(99)) + ", max "
                + ReportFormat.millis(size.hop().getMaxValue());
    }

    private static String ratioLine(SizeResult size, double ratio) {
        long lapse = size.completed(Peer.LAPSE_ZSET).orElseThrow().lateness().getValueAtPercentile(99);
        long ideal = size.completed(Peer.IDEAL).orElseThrow().lateness().getValueAtPercentile(99);
        long hop = size.hop().getValueAtPercentile(99);
        return String.format(
                Locale.ROOT,
                "%d ms ÷ (%d ms + %d ms) = %.1f (goal ≤ %.0f: %s)",
                lapse,
                hop,
                ideal,
                ratio,
                GOAL,
                ratio <= GOAL ? "met" : "not met");
    }

    private static String thousands(double perSecond) {
        return perSecond >= 10_000 ? Math.round(perSecond / 1_000) + " k" : ReportFormat.count(Math.round(perSecond));
    }

    private static String cores(double cores) {
        return String.format(Locale.ROOT, "%.2f", cores);
    }
}
