package io.lapse.app;

import picocli.CommandLine;

/** The {@code lapse} launcher of the production jar. */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The {@code lapse} command with every production subcommand; the development launcher adds its own to it. */
    public static CommandLine commandLine() {
        return new CommandLine(new LapseCommand()).setExecutionExceptionHandler(new FriendlyErrors());
    }
}
