package io.lapse.app;

import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;

/** Every subcommand inherits --help and --version, including those the development launcher adds. */
@Command(name = "lapse", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT, versionProvider = Version.class,
        description = "Watchdog for silent charging orders: re-arms a deadline on every status and pulls upstream "
                + "when an order stays silent.",
        subcommands = {ServeCommand.All.class, ServeCommand.Ingest.class, ServeCommand.Timer.class,
                ServeCommand.Puller.class, ServeCommand.Compensator.class})
final class LapseCommand {
}
