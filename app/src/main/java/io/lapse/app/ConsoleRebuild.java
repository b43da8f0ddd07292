package io.lapse.app;

import io.lapse.compensator.OnCallRebuild;
import io.lapse.config.LapseConfig;
import io.lapse.operations.console.TimerRebuilder;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;

/**
 * The console's Rebuild button: {@code lapse rebuild} as its defaults run it, drawing its progress bar for the page,
 * which shows the last line drawn.
 */
public final class ConsoleRebuild implements TimerRebuilder {

    /** lapse rebuild's --wait default: how long a running compensator has to process what was published. */
    private static final Duration CATCH_UP = Duration.ofSeconds(30);

    @Override
    public int rebuild(LapseConfig config, PrintStream out, PrintStream err) {
        return new OnCallRebuild(config, out, err, Clock.systemUTC()).run(false, CATCH_UP, true);
    }
}
