package io.lapse.faults.scenario;

import io.lapse.config.ConfigKey;
import io.lapse.faults.fault.Fault;
import io.lapse.faults.lab.Layout;
import java.time.Duration;
import java.util.Map;

/**
 * A fault under a name the command line accepts.
 *
 * @param inCi     whether {@code ./mvnw verify} runs it (the rest run with {@code -Pfaults} or {@code --scenarios all})
 * @param settings the Lapse settings it needs beyond the suite's: it runs on a generation of its own with them
 * @param grace    how late a silent order's first expiry may come after its deadline or the fault's recovery,
 *                 whichever is later: the scenario's bound
 * @param layout   a process per service, or the four in one {@code lapse all} (a generation of its own too)
 */
record Scenario(
        String name, boolean inCi, Map<ConfigKey, String> settings, Duration grace, Layout layout, Fault fault) {

    Scenario {
        settings = Map.copyOf(settings);
    }

    Scenario(String name, boolean inCi, Map<ConfigKey, String> settings, Duration grace, Fault fault) {
        this(name, inCi, settings, grace, Layout.PROCESS_PER_SERVICE, fault);
    }

    /** The same, with the services in one {@code lapse all} process, named {@code <name>-all}. */
    Scenario inOneProcess() {
        return new Scenario(name + "-all", false, settings, grace, Layout.ONE_PROCESS, fault);
    }
}
