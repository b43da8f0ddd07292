package io.lapse.operations.console;

import io.lapse.config.LapseConfig;
import java.io.PrintStream;

/**
 * {@code lapse rebuild}'s work, which the console's Rebuild button runs. The app hands it in: the compensator, which
 * knows how to rebuild Redis from its state in Kafka, is no dependency of the on-call commands.
 */
@FunctionalInterface
public interface TimerRebuilder {

    /**
     * Rebuilds every timer in Redis, as {@code lapse rebuild} does.
     *
     * @param out where its summary line goes
     * @param err where it draws its progress, and says what stopped it
     * @return {@code lapse rebuild}'s exit code: 0 done, 1 done but not exact, 2 nothing done
     */
    int rebuild(LapseConfig config, PrintStream out, PrintStream err);
}
