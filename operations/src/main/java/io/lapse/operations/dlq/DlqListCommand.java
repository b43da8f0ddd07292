package io.lapse.operations.dlq;

import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Exit;
import io.lapse.operations.cli.Json;
import io.lapse.operations.cli.OnCallCommand;
import io.lapse.operations.cli.Show;
import java.nio.charset.StandardCharsets;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "list",
        usageHelpAutoWidth = true,
        header = "List dead letters: where from, why, and what they held.",
        description = "List dead letters: where the original record was (topic/partition@offset), its key, the "
                + "reason, and the start of its value.",
        footer = {
            "%nExamples:",
            "  lapse dlq list --since -1h",
            "  lapse dlq list --reason 'differs from orderId' --json"
        })
public final class DlqListCommand extends OnCallCommand {

    @Mixin
    DeadLetterFilter filter;

    @Option(names = "--json", description = "Print the dead letters as JSON.")
    boolean json;

    /** One dead letter, for --json. */
    record Listed(String at, long written, String reason, String source, String key, String value, String valueHex) {}

    @Override
    protected int run(Connections connections) {
        long now = now();
        List<DeadLetterRecord> letters = filter.read(connections, now, progress("reading dead letters", 0));
        List<Listed> listed = letters.stream()
                .map(l -> new Listed(
                        l.at().toString(),
                        l.timestamp(),
                        l.reason(),
                        l.source() == null ? null : l.source().toString(),
                        l.originalKey() == null ? null : new String(l.originalKey(), StandardCharsets.UTF_8),
                        l.valuePrefix(),
                        l.valueHex()))
                .toList();
        if (json) {
            Json.print(out(), listed);
            return Exit.OK;
        }
        for (Listed l : listed) {
            Show.line(out(), l.at() + "  written " + Show.time(l.written()));
            Show.line(out(), "    reason  " + l.reason());
            Show.line(
                    out(),
                    "    source  " + (l.source() == null ? "unknown" : l.source()) + "  key "
                            + (l.key() == null ? "(none)" : l.key()));
            Show.line(out(), "    value   " + l.value());
        }
        out().println(Show.count(listed.size(), "dead letter") + filter.describe(now));
        return Exit.OK;
    }
}
