package io.lapse.faults.soak.load;

import java.time.Duration;

/**
 * The load's cohorts: {@code cohorts} operators of {@link CohortSizes#zipf Zipf sizes}, each push naming its order's in
 * the top-level field {@link CohortSizes#FIELD} (0: none, and no push names one); and the cohort whose size is nearest
 * {@code silentShare} of the fleet silenced all at once {@code silenceAt} after the start for {@code silenceFor}
 * (zero: no cohort goes silent), upstream still answering its pulls, after which its orders push again.
 */
public record CohortPlan(int cohorts, double silentShare, Duration silenceAt, Duration silenceFor) {

    public static final CohortPlan NONE = new CohortPlan(0, 0, Duration.ZERO, Duration.ZERO);

    public CohortPlan {
        if (cohorts < 0) {
            throw new IllegalArgumentException("cohorts must not be negative, got " + cohorts);
        }
        if (silentShare < 0 || silentShare > 1) {
            throw new IllegalArgumentException("the silent cohort's share is from 0 to 1, got " + silentShare);
        }
        if (silenceAt.isNegative() || silenceFor.isNegative()) {
            throw new IllegalArgumentException("a cohort silence at " + silenceAt + " for " + silenceFor);
        }
        if (cohorts == 0 && !silenceFor.isZero()) {
            throw new IllegalArgumentException("a cohort silence needs cohorts");
        }
    }

    boolean silences() {
        return !silenceFor.isZero();
    }
}
