package io.lapse.operations.cli;

import io.lapse.internal.Terminals;
import java.time.Clock;
import java.util.Map;

/**
 * What an on-call command takes from the process it runs in, so that tests can supply their own.
 *
 * @param env         where LAPSE_* settings come from
 * @param interactive whether a person watches stderr: progress bars are drawn there only then
 */
public record OnCallEnvironment(Map<String, String> env, Clock clock, boolean interactive) {

    public OnCallEnvironment {
        env = Map.copyOf(env);
    }

    static OnCallEnvironment system() {
        Map<String, String> env = System.getenv();
        return new OnCallEnvironment(env, Clock.systemUTC(), Terminals.stderrIsTerminal(env));
    }
}
