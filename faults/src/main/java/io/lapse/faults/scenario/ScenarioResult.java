package io.lapse.faults.scenario;

import io.lapse.faults.lab.Liveness;
import io.lapse.faults.observe.DeadLetterTally;
import io.lapse.faults.observe.FiringTally;
import io.lapse.faults.observe.RecordRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How one scenario went: its figures, and the verdict the issue asks for (missed = 0, false = 0, pull results lost =
 * 0, all consumers alive, dead letters = poison sent).
 *
 * @param grace       the scenario's bound on a silent order's firing
 * @param firing      null when the scenario could not run
 * @param deadLetters null when the scenario could not run
 * @param poison      the poison it sent, whose dead letters are its own whenever they come
 * @param faultFailures what the fault itself saw go wrong while it lasted
 * @param notes       examples and anything that makes the figures less than complete
 */
record ScenarioResult(
        String scenario,
        Duration grace,
        FiringTally.Figures firing,
        DeadLetterTally.Figures deadLetters,
        Liveness.Verdict consumers,
        List<RecordRef> poison,
        List<String> faultFailures,
        List<String> notes) {

    static ScenarioResult couldNotRun(Scenario scenario, String why) {
        return new ScenarioResult(
                scenario.name(),
                scenario.grace(),
                null,
                null,
                new Liveness.Verdict(false, "not measured"),
                List.of(),
                List.of(),
                List.of("could not run: " + why));
    }

    boolean measured() {
        return firing != null;
    }

    boolean passed() {
        return failures().isEmpty();
    }

    /**
     * Whether its processes can serve the next scenario: it passed, or it failed on its bound alone (every silent
     * order fired with its deadline, only later than the bound allows, and nothing else went wrong).
     */
    boolean leftTheProcessesHealthy() {
        return passed()
                || (measured() && firing.missed() == firing.late() && failures().size() == 1);
    }

    /** What the verdict rests on, when it is FAIL. */
    List<String> failures() {
        List<String> failures = new ArrayList<>();
        if (!measured()) {
            failures.add("not measured");
            return failures;
        }
        if (firing.missed() > 0) {
            failures.add(firing.missed() + " of " + firing.expected() + " silent orders missed (not fired within "
                    + grace.toMillis() / 1000.0 + " s)");
        }
        if (firing.falseExpiries() > 0) {
            failures.add(firing.falseExpiries() + " false expiries on " + firing.falseOrders() + " orders");
        }
        if (firing.pullsLost() > 0) {
            failures.add(firing.pullsLost() + " expiries without a pull result");
        }
        if (!consumers.alive()) {
            failures.add("consumers " + consumers.detail());
        }
        failures.addAll(faultFailures);
        if (!deadLetters.matches()) {
            failures.add(deadLetters.deadLetters() + " dead letters for " + deadLetters.poisonSent()
                    + " poison records (" + deadLetters.withoutDeadLetter() + " without one, "
                    + deadLetters.unexpected() + " unexpected)");
        }
        notes.stream().filter(note -> note.startsWith("incomplete:")).forEach(failures::add);
        return failures;
    }
}
