package io.lapse.app;

import picocli.CommandLine;

/** The {@code lapse} launcher. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        int exit = new CommandLine(new LapseCommand())
                .setExecutionExceptionHandler(new FriendlyErrors())
                .execute(args);
        System.exit(exit);
    }
}
