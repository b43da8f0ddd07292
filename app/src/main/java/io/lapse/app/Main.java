package io.lapse.app;

import io.lapse.operations.console.ConsoleCommand;
import picocli.CommandLine;

/** The {@code lapse} launcher of the production jar. */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The {@code lapse} command with every production subcommand; the development launcher adds its own to it. The
     * console is given the rebuild here: it runs the compensator's, which the on-call commands do not depend on.
     */
    public static CommandLine commandLine() {
        return new CommandLine(new LapseCommand())
                .addSubcommand(new ConsoleCommand(new ConsoleRebuild()))
                .setExecutionExceptionHandler(new FriendlyErrors());
    }
}
