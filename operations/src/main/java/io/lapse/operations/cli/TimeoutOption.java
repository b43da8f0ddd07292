package io.lapse.operations.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --timeout}: how long a command waits for a Kafka or Redis that does not answer before it gives up. */
public final class TimeoutOption {

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "5s",
            description = "Give up on a Kafka or Redis that does not answer within this (${DEFAULT-VALUE}).")
    String text;

    /** @throws OnCallError naming the option when the text is not a duration */
    public Duration limit() {
        return Arguments.duration("--timeout", text);
    }
}
