package io.lapse.faults.scenario;

import io.lapse.config.ConfigKey;
import io.lapse.faults.fault.Fault;
import java.time.Duration;
import java.util.Map;

/**
 * A fault under a name the command line accepts.
 *
 * @param inCi     whether {@code ./mvnw verify} runs it (the rest run with {@code -Pfaults} or {@code --scenarios all})
 * @param settings the Lapse settings it needs beyond the suite's: it runs on a generation of its own with them
 * @param grace    how late a silent order's first expiry may come after its deadline or the fault's recovery,
 *                 whichever is later: the scenario's bound
 */
record Scenario(String name, boolean inCi, Map<ConfigKey, String> settings, Duration grace, Fault fault) {

    Scenario {
        settings = Map.copyOf(settings);
    }
}
