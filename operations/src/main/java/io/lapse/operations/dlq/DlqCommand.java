package io.lapse.operations.dlq;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(
        name = "dlq",
        usageHelpAutoWidth = true,
        mixinStandardHelpOptions = true,
        header = "List dead letters, or publish them again to where they came from.",
        description = "Dead letters: records a service could not process, kept whole with the reason, on topics.dlq.",
        subcommands = {DlqListCommand.class, DlqRedriveCommand.class},
        footer = {
            "%nExamples:",
            "  lapse dlq list --since -1h",
            "  lapse dlq redrive --reason 'not valid JSON' --dry-run"
        })
public final class DlqCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "say what to do: lapse dlq list, or lapse dlq redrive");
    }
}
