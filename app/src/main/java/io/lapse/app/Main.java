package io.lapse.app;

import io.lapse.operations.console.ConsoleCommand;
import io.lapse.operations.dlq.DlqCommand;
import io.lapse.operations.inspect.CohortCommand;
import io.lapse.operations.inspect.InspectCommand;
import io.lapse.operations.manual.CancelCommand;
import io.lapse.operations.manual.FireCommand;
import io.lapse.operations.replay.ReplayCommand;
import io.lapse.operations.settings.SettingsCommand;
import io.lapse.operations.status.StatusCommand;
import io.lapse.operations.watermarks.WatermarksCommand;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code lapse} launcher of the production jar. */
public final class Main {

    private Main() {}

    /** What each service's process runs, in the order the help lists them. */
    private static final List<Class<? extends ServeCommand>> SERVICE_COMMANDS = List.of(
            ServeCommand.All.class,
            ServeCommand.Ingest.class,
            ServeCommand.Timer.class,
            ServeCommand.Puller.class,
            ServeCommand.Compensator.class);

    private static final List<Class<?>> ON_CALL_COMMANDS = List.of(
            StatusCommand.class,
            InspectCommand.class,
            CohortCommand.class,
            FireCommand.class,
            CancelCommand.class,
            ReplayCommand.class,
            DlqCommand.class,
            WatermarksCommand.class,
            RebuildCommand.class,
            SettingsCommand.class);

    public static void main(String[] args) {
        System.exit(commandLine(args).execute(args));
    }

    /**
     * The command line for these arguments: a service's start gets the {@code lapse} command with its own subcommand
     * alone. Picocli reads every option of every subcommand it is given, and the on-call commands' would cost a
     * restarting service a few hundred ms before it connects anywhere (picocli's classes are too old for the
     * class-data archive); anything else gets {@link #commandLine()}.
     */
    static CommandLine commandLine(String... args) {
        return serviceCommand(args)
                .map(command -> new CommandLine(new LapseCommand())
                        .addSubcommand(command)
                        .setExecutionExceptionHandler(new FriendlyErrors()))
                .orElseGet(Main::commandLine);
    }

    /**
     * The {@code lapse} command with every production subcommand; the development launcher adds its own to it. The
     * console is given the rebuild here: it runs the compensator's, which the on-call commands do not depend on.
     */
    public static CommandLine commandLine() {
        CommandLine lapse = new CommandLine(new LapseCommand());
        SERVICE_COMMANDS.forEach(lapse::addSubcommand);
        ON_CALL_COMMANDS.forEach(lapse::addSubcommand);
        return lapse.addSubcommand(new ConsoleCommand(new ConsoleRebuild()))
                .setExecutionExceptionHandler(new FriendlyErrors());
    }

    private static Optional<Class<? extends ServeCommand>> serviceCommand(String[] args) {
        return args.length == 0
                ? Optional.empty()
                : SERVICE_COMMANDS.stream()
                        .filter(command ->
                                command.getAnnotation(Command.class).name().equals(args[0]))
                        .findFirst();
    }
}
