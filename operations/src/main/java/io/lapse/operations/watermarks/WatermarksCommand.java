package io.lapse.operations.watermarks;

import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Exit;
import io.lapse.operations.cli.Json;
import io.lapse.operations.cli.OnCallCommand;
import io.lapse.operations.cli.Show;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "watermarks",
        usageHelpAutoWidth = true,
        header = "List ingest's watermark per partition, or forget gone partitions.",
        description = {
            "How far ingest has read each partition of the push and pulled topics: the event time it has "
                    + "applied to Redis up to, and its age. The lowest is the watermark; no deadline after it fires.",
            "A mark of a partition that no longer exists (a topic recreated with fewer partitions, or renamed) "
                    + "holds the watermark back for ever: 'lapse watermarks forget' drops it.",
            "Exit code 1 when a mark belongs to a partition that no longer exists, or a partition has none."
        },
        subcommands = WatermarksForgetCommand.class,
        footer = {"%nExamples:", "  lapse watermarks", "  lapse watermarks forget charging.status.push/7"})
public final class WatermarksCommand extends OnCallCommand {

    @Option(names = "--json", description = "Print the marks as JSON.")
    boolean json;

    /** What lapse watermarks found, for --json. */
    record Listing(List<PartitionMarks.Mark> marks, List<String> unreported, PartitionMarks.Mark lowest) {}

    @Override
    protected int run(Connections connections) {
        long now = now();
        PartitionMarks partitions = new PartitionMarks(connections);
        Listing listing = new Listing(
                partitions.marks(now),
                partitions.unreported(),
                partitions.lowest(now).orElse(null));
        if (json) {
            Json.print(out(), listing);
        } else {
            print(listing);
        }
        boolean gone = listing.marks().stream().anyMatch(m -> !m.exists());
        return gone || !listing.unreported().isEmpty() ? Exit.PROBLEM : Exit.OK;
    }

    private void print(Listing listing) {
        int width = listing.marks().stream()
                .mapToInt(m -> m.partition().length())
                .max()
                .orElse(9);
        String row = "%-" + width + "s  %-24s  %10s%s%n";
        out().printf(row, "partition", "watermark", "age", "");
        for (PartitionMarks.Mark mark : listing.marks()) {
            out().printf(
                            row,
                            mark.partition(),
                            Show.time(mark.watermark()),
                            Show.duration(mark.ageMillis()),
                            mark.exists() ? "" : "  no longer exists: lapse watermarks forget " + mark.partition());
        }
        for (String partition : listing.unreported()) {
            out().printf(row, partition, "none yet", "", "  holds the watermark back until ingest reports it");
        }
        PartitionMarks.Mark lowest = listing.lowest();
        out().println(
                        lowest == null
                                ? "watermark: none; ingest has reported nothing, so nothing fires"
                                : "watermark: " + Show.time(lowest.watermark()) + " ("
                                        + Show.duration(lowest.ageMillis()) + " old), " + "from " + lowest.partition());
    }
}
