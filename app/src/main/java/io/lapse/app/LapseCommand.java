package io.lapse.app;

import picocli.CommandLine.Command;

@Command(name = "lapse", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Watchdog for silent charging orders: re-arms a deadline on every status and pulls upstream "
                + "when an order stays silent.",
        subcommands = {DemoCommand.class, ServeCommand.All.class, ServeCommand.Ingest.class,
                ServeCommand.Timer.class, ServeCommand.Puller.class, ServeCommand.Compensator.class,
                BenchCommand.class, RebuildCommand.class})
final class LapseCommand {
}
