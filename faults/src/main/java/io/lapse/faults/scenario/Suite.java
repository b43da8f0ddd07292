package io.lapse.faults.scenario;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.observe.RecordRef;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs scenarios one after another on a lab. They share a generation of Lapse processes while they pass, or fail on
 * their time bound alone (everything fired, only late); after any other failure (or a scenario that could not run) the
 * next one starts on a fresh generation, so that its verdict is its own; so does a scenario whose settings are not the
 * current generation's.
 */
final class Suite {

    private static final Logger log = LoggerFactory.getLogger(Suite.class);

    private final Lab lab;
    private final Set<RecordRef> poisonSent = new HashSet<>();
    private final List<ScenarioResult> results = new ArrayList<>();
    private boolean renew = true;

    Suite(Lab lab) {
        this.lab = lab;
    }

    ScenarioResult run(Scenario scenario) {
        ScenarioResult result;
        try {
            if (renew
                    || !lab.generation().settings().equals(scenario.settings())
                    || lab.generation().layout() != scenario.layout()) {
                lab.renew(scenario.settings(), scenario.layout());
            }
            log.info("{}: starting", scenario.name());
            result = ScenarioRun.run(scenario, lab, Set.copyOf(poisonSent));
        } catch (Exception e) {
            log.error("{} could not run", scenario.name(), e);
            result = ScenarioResult.couldNotRun(scenario, e.toString());
        }
        poisonSent.addAll(result.poison());
        renew = !result.leftTheProcessesHealthy();
        results.add(result);
        log.info("{}: {}", scenario.name(), result.passed() ? "PASS" : "FAIL " + result.failures());
        return result;
    }

    List<ScenarioResult> results() {
        return List.copyOf(results);
    }
}
