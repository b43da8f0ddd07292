package io.lapse.app;

import io.lapse.compensator.OnCallRebuild;
import io.lapse.config.Durations;
import io.lapse.internal.Terminals;
import io.lapse.operations.cli.ConfigOption;
import io.lapse.operations.cli.HelpOption;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "rebuild",
        description =
                "Rebuild every timer in Redis from the compensator's state in Kafka, as the "
                        + "compensator does at once when Redis lost its data, and let the timer fire again. Exit code 0: done; "
                        + "1: done but not exact (see the summary); 2: nothing done (Kafka or Redis unreachable, no compensator state).",
        footer = {"%nExamples:", "  lapse rebuild --dry-run --config lapse.properties", "  lapse rebuild --wait 2m"})
final class RebuildCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Mixin
    HelpOption help;

    @Option(names = "--dry-run", description = "Count what would be written; write nothing, touch no epoch.")
    boolean dryRun;

    @Option(
            names = "--wait",
            paramLabel = "DURATION",
            defaultValue = "30s",
            converter = DurationConverter.class,
            description = "How long to wait for a running compensator to process what was published before the "
                    + "rebuild (default ${DEFAULT-VALUE}).")
    Duration wait;

    @Override
    public Integer call() {
        return new OnCallRebuild(config.load(System.getenv()), System.out, System.err, Clock.systemUTC())
                .run(dryRun, wait, Terminals.stderrIsTerminal(System.getenv()));
    }

    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return Durations.parse(value);
        }
    }
}
