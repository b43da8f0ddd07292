package io.lapse.faults.soak.judge;

/**
 * What the load generator did to the silent cohort, as it says: its name, how many of its active orders stopped
 * pushing and when (epoch ms), and when they pushed again (0: not yet).
 */
public record CohortSilenceTruth(String cohort, int orders, long silencedAt, long resumedAt) {

    public CohortSilenceTruth {
        if (cohort == null || cohort.isEmpty() || orders < 0 || silencedAt <= 0 || resumedAt < 0) {
            throw new IllegalArgumentException(
                    "a cohort silence of " + cohort + ": " + orders + " orders at " + silencedAt + " to " + resumedAt);
        }
    }

    public CohortSilenceTruth resumed(long at) {
        return new CohortSilenceTruth(cohort, orders, silencedAt, at);
    }
}
