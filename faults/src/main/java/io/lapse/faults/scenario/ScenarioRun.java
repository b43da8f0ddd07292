package io.lapse.faults.scenario;

import io.lapse.faults.fault.FaultReport;
import io.lapse.faults.lab.Generation;
import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.Liveness;
import io.lapse.faults.lab.ReadinessWatch;
import io.lapse.faults.observe.DeadLetterTally;
import io.lapse.faults.observe.FiringTally;
import io.lapse.faults.observe.Observations;
import io.lapse.faults.observe.RecordRef;
import io.lapse.faults.observe.Timeline;
import io.lapse.faults.settings.SuiteSettings;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scenario on the lab's current generation: its orders push for the warm-up, then some go silent and some finish;
 * a second later the fault strikes; once it is over, the observation runs until the last silent order's first expiry
 * is due (deadline or recovery, whichever is later, plus the grace) and its pull result had time to follow, and as long
 * again as {@link #OVERTIME} while some silent order has not fired, or until every silent order fired and was answered
 * 3 s ago, if sooner. Then the taps read Kafka to the end, the consumers are
 * checked, and the figures tallied.
 */
final class ScenarioRun {

    private static final Logger log = LoggerFactory.getLogger(ScenarioRun.class);
    /** So that the silent orders' deadlines, a ttl after the silence, fall inside the fault. */
    private static final Duration FAULT_AFTER_SILENCE = Duration.ofSeconds(1);

    private static final Duration WARM_UP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(60);
    /** A process restarted late in the scenario may still be starting its JVM on a loaded machine. */
    private static final Duration LIVENESS_TIMEOUT = Duration.ofSeconds(60);

    /**
     * Once every silent order has fired and been answered, the rest of the grace and the settling waits for nothing:
     * the scenario watches this much longer for a false expiry or a lost answer, and ends.
     */
    private static final Duration QUIET = Duration.ofSeconds(3);

    /**
     * How much longer than the bound and the settling the observation waits for silent orders that have not fired
     * and been answered: a failed bound then still shows by how much it was missed.
     */
    private static final Duration OVERTIME = Duration.ofSeconds(20);

    private ScenarioRun() {}

    /** A condition that has held, without a break, for {@link #QUIET}. */
    private static final class QuietAfter {
        private final BooleanSupplier condition;
        private long since = Long.MAX_VALUE;

        QuietAfter(BooleanSupplier condition) {
            this.condition = condition;
        }

        boolean heldFor() {
            long now = System.currentTimeMillis();
            if (!condition.getAsBoolean()) {
                since = Long.MAX_VALUE;
                return false;
            }
            since = Math.min(since, now);
            return now - since >= QUIET.toMillis();
        }
    }

    /** @param otherPoison poison of the scenarios before, whose dead letters are not this one's */
    static ScenarioResult run(Scenario scenario, Lab lab, Set<RecordRef> otherPoison) throws Exception {
        SuiteSettings settings = lab.settings();
        Generation generation = lab.generation();
        scenario.fault().prepare(lab);
        Workload workload = new Workload(lab.fleet(), scenario.name(), settings);
        long startedAt = workload.start();
        ReadinessWatch readiness = ReadinessWatch.start(generation.services()::all);
        try {
            long silencedAt =
                    workload.silenceAfterWarmUp(generation.observations()::allSpoke, startedAt, WARM_UP_TIMEOUT);
            Waiting.untilTime(silencedAt + FAULT_AFTER_SILENCE.toMillis());
            log.info("{}: injecting the fault into {}", scenario.name(), generation.name());
            FaultReport fault = scenario.fault().inject(lab, workload);
            long firingDue = Math.max(silencedAt + settings.ttl().toMillis(), fault.recoveredAt())
                    + scenario.grace().toMillis();
            long answeredBy = Math.max(firingDue, System.currentTimeMillis());
            QuietAfter allIn = new QuietAfter(() -> generation.observations().allExpiredAndAnswered(workload.silent()));
            long endedAt = Waiting.untilTimeOr(
                    answeredBy + settings.settle().plus(OVERTIME).toMillis(), () -> {}, allIn::heldFor);
            // expiries appended in the last moments, a silent order's next attempt say, need not be answered yet
            Timeline timeline = new Timeline(
                    startedAt, fault.recoveredAt(), Math.min(answeredBy, endedAt - QUIET.toMillis()), endedAt);
            return tally(scenario, lab, generation, workload, timeline, fault, otherPoison);
        } finally {
            readiness.close();
            workload.end();
        }
    }

    private static ScenarioResult tally(
            Scenario scenario,
            Lab lab,
            Generation generation,
            Workload workload,
            Timeline timeline,
            FaultReport fault,
            Set<RecordRef> otherPoison) {
        List<String> notes = new ArrayList<>();
        if (!generation.observations().awaitCaughtUp(lab.admin(), CATCH_UP_TIMEOUT)) {
            notes.add("incomplete: the topics could not be read to their end within " + CATCH_UP_TIMEOUT.toSeconds()
                    + " s");
        }
        generation.services().all().stream()
                .filter(process -> process.launchedAt() >= timeline.startedAt())
                .forEach(process -> notes.add(process.startup(timeline.endedAt())));
        if (fault.poisonRefused() > 0) {
            notes.add(fault.poisonRefused() + " poison records were refused by Kafka and are not counted");
        }
        Liveness.Verdict consumers = generation.liveness(lab, LIVENESS_TIMEOUT);
        Observations seen = generation.observations();
        FiringTally.Figures firing =
                FiringTally.of(workload, seen, timeline, lab.settings().ttl(), scenario.grace());
        notes.addAll(firing.examples());
        DeadLetterTally.Figures deadLetters =
                DeadLetterTally.of(fault.poison(), seen.deadLetters(), timeline, otherPoison, fault.failingOrders());
        return new ScenarioResult(
                scenario.name(),
                scenario.grace(),
                firing,
                deadLetters,
                consumers,
                fault.poison(),
                fault.failures(),
                notes);
    }
}
