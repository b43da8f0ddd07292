package io.lapse.app;

import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;

/**
 * Every subcommand inherits --help and --version, including those {@link Main} and the development launcher add. The
 * subcommands are added by {@link Main}, not declared here: a service's start is given only its own.
 */
@Command(
        name = "lapse",
        mixinStandardHelpOptions = true,
        scope = ScopeType.INHERIT,
        versionProvider = Version.class,
        description = "Watchdog for silent charging orders: re-arms a deadline on every status and pulls upstream "
                + "when an order stays silent.")
final class LapseCommand {}
