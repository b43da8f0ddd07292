package io.lapse.app;

import io.lapse.operations.dlq.DlqCommand;
import io.lapse.operations.inspect.CohortCommand;
import io.lapse.operations.inspect.InspectCommand;
import io.lapse.operations.manual.CancelCommand;
import io.lapse.operations.manual.FireCommand;
import io.lapse.operations.replay.ReplayCommand;
import io.lapse.operations.settings.SettingsCommand;
import io.lapse.operations.status.StatusCommand;
import io.lapse.operations.watermarks.WatermarksCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;

/**
 * Every subcommand inherits --help and --version, including those {@link Main} and the development launcher add.
 */
@Command(
        name = "lapse",
        mixinStandardHelpOptions = true,
        scope = ScopeType.INHERIT,
        versionProvider = Version.class,
        description = "Watchdog for silent charging orders: re-arms a deadline on every status and pulls upstream "
                + "when an order stays silent.",
        subcommands = {
            ServeCommand.All.class,
            ServeCommand.Ingest.class,
            ServeCommand.Timer.class,
            ServeCommand.Puller.class,
            ServeCommand.Compensator.class,
            StatusCommand.class,
            InspectCommand.class,
            CohortCommand.class,
            FireCommand.class,
            CancelCommand.class,
            ReplayCommand.class,
            DlqCommand.class,
            WatermarksCommand.class,
            RebuildCommand.class,
            SettingsCommand.class
        })
final class LapseCommand {}
