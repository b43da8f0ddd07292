package io.lapse.faults.soak.settings;

import io.lapse.faults.soak.fault.FleetSilenceStorm;
import io.lapse.faults.soak.judge.FleetEventsVerdict;
import java.util.Arrays;
import java.util.stream.Collectors;

/** What a soak may break under full load, while its silent orders fall due. */
public enum SoakFault {
    /** kill -STOP the ingest for 10 s, then -CONT: no expiry may be false, and its lag must come back. */
    FREEZE_INGEST("freeze-ingest"),
    /** FLUSHALL on Redis: the compensator rebuilds; no silent order may be missed, no finished one revived. */
    FLUSH_REDIS("flush-redis"),
    /** kill -9 the timer and start it again: how late the slowest silent order fires. */
    KILL_TIMER("kill-timer"),
    /**
     * Every push stops at once for the storm's length, then resumes (upstream keeps answering pulls): how fast the
     * timer fires, how the puller drains the backlog, and whether Lapse says so once ({@link FleetSilenceStorm}).
     */
    FLEET_SILENCE("fleet-silence"),
    /**
     * With cohorts, the one of about {@code --silent} of the fleet stops pushing at once (upstream keeps answering)
     * and pushes again once every order of it fired: when Lapse tells it ({@link FleetEventsVerdict}).
     */
    COHORT_SILENCE("cohort-silence");

    public final String label;

    SoakFault(String label) {
        this.label = label;
    }

    public static SoakFault parse(String label) {
        return Arrays.stream(values())
                .filter(f -> f.label.equals(label))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no fault " + label + "; one of "
                        + Arrays.stream(values()).map(f -> f.label).collect(Collectors.joining(", "))));
    }
}
