package io.lapse.operations.watermarks;

import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Exit;
import io.lapse.operations.cli.OnCallCommand;
import io.lapse.operations.cli.OnCallError;
import io.lapse.operations.cli.Show;
import io.lapse.store.watermarks.Watermarks;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
        name = "forget",
        usageHelpAutoWidth = true,
        header = "Forget the marks of partitions that no longer exist.",
        description = {
            "Drop the marks of partitions that no longer exist, which hold the watermark back for ever. "
                    + "A partition that exists is refused: ingest reports it, and dropping its mark would let expiries "
                    + "fire before ingest has read it."
        },
        footer = {"%nExample:", "  lapse watermarks forget charging.status.push/6 charging.status.push/7"})
public final class WatermarksForgetCommand extends OnCallCommand {

    @Parameters(
            paramLabel = "PARTITION",
            arity = "1..*",
            description = "topic/partition, as lapse watermarks lists it.")
    List<String> partitions;

    @Override
    protected int run(Connections connections) {
        PartitionMarks marks = new PartitionMarks(connections);
        for (String partition : partitions) {
            if (!partition.matches(".+/\\d+")) {
                throw new OnCallError("'" + partition + "' is not topic/partition (e.g. charging.status.push/7)");
            }
            if (!marks.has(partition)) {
                throw new OnCallError("there is no watermark for " + partition + " (lapse watermarks lists them)");
            }
            if (marks.exists(partition)) {
                throw new OnCallError("refusing to forget " + partition + ": the partition exists, and ingest "
                        + "reports its mark; only partitions that no longer exist can be forgotten");
            }
        }
        Watermarks.of(connections.redis(), connections.keys(), connections.config())
                .forget(partitions.toArray(String[]::new))
                .join();
        long now = now();
        for (String partition : partitions) {
            out().printf(
                            "forgot %s (its mark was %s, %s old)%n",
                            partition,
                            Show.time(marks.markOf(partition)),
                            Show.duration(now - marks.markOf(partition)));
        }
        return Exit.OK;
    }
}
