package io.lapse.bench.throughput;

import io.lapse.bench.report.MarkdownTable;
import io.lapse.bench.report.Rate;
import io.lapse.bench.report.ReportFormat;
import java.util.Locale;

/** The ingest-throughput part of the report: ingest beside its Kafka half and its Redis half alone. */
public final class ThroughputSection {

    private ThroughputSection() {}

    public static String markdown(ThroughputResult t) {
        StringBuilder out = new StringBuilder("## Ingest throughput (goal ≥ 100,000 pushes/s)\n\n");
        if (t.failure() != null) {
            return out.append("Failed: ").append(t.failure()).append('\n').toString();
        }
        out.append(ReportFormat.count(t.records()))
                .append(" pushes over ")
                .append(ReportFormat.count(t.orders()))
                .append(" orders, written beforehand to one topic with 6 partitions; each path reads or writes all of"
                        + " them once.\n\n");
        MarkdownTable table = new MarkdownTable("path", "records", "seconds", "records/s", "ingest ÷ path");
        row(table, "Lapse ingest: Kafka → Redis (Lua arm), offsets committed", t.ingest(), null);
        row(table, "Kafka alone: plain consumer, read + JSON decode", t.consumerBaseline(), t.ingest());
        row(table, "Redis alone: pipelined ZADD GT, 500 members/command", t.redisBaseline(), t.ingest());
        row(table, "(producer writing the backlog: acks=1, lz4)", t.fill(), null);
        return out.append(table).toString();
    }

    /** @param ingest when not null, the ratio of ingest's rate to this path's */
    private static void row(MarkdownTable table, String path, Rate rate, Rate ingest) {
        String records = ReportFormat.count(rate.records()) + (rate.complete() ? "" : " (time limit)");
        table.row(
                path,
                records,
                String.format(Locale.ROOT, "%.1f", rate.seconds()),
                ReportFormat.count(Math.round(rate.perSecond())),
                ingest == null ? "—" : String.format(Locale.ROOT, "%.2f", ingest.perSecond() / rate.perSecond()));
    }
}
