package io.lapse.faults.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.faults.settings.SuiteSettings;
import io.lapse.faults.workload.Workload;
import io.lapse.simulator.Fleet;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Four orders: t-1 goes silent after its push at 2 s (deadline 5 s), t-2 finishes at 2.5 s, t-3 and t-4 push every
 * second up to 10 s. ttl 3 s, grace 5 s; the fault recovered at 3 s; pull results are due for expiries up to 12 s.
 */
class FiringTallyTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final Duration GRACE = Duration.ofSeconds(5);
    private static final Timeline TIMELINE = new Timeline(0, 3_000, 12_000, 15_000);

    private final List<Seen.Push> pushes = new ArrayList<>();
    private final List<Seen.Expiry> expiries = new ArrayList<>();
    private final List<Seen.Pull> pulls = new ArrayList<>();
    private Workload workload;

    @BeforeEach
    void fourOrders() {
        SuiteSettings settings = new SuiteSettings(
                4,
                1,
                1,
                Duration.ofSeconds(1),
                TTL,
                Duration.ofSeconds(3),
                GRACE,
                Duration.ofSeconds(5),
                Duration.ofSeconds(2),
                0.01,
                6,
                Path.of("unused"));
        workload = new Workload(new Fleet(Clock.systemUTC()), "t", settings);
        workload.start();
        pushes.add(new Seen.Push("t-1", 1_000, false));
        pushes.add(new Seen.Push("t-1", 2_000, false));
        pushes.add(new Seen.Push("t-2", 1_000, false));
        pushes.add(new Seen.Push("t-2", 2_000, false));
        pushes.add(new Seen.Push("t-2", 2_500, true));
        LongStream.rangeClosed(1, 10).forEach(s -> {
            pushes.add(new Seen.Push("t-3", s * 1_000, false));
            pushes.add(new Seen.Push("t-4", s * 1_000, false));
        });
    }

    @Test
    void aSilentOrderFiredAtTheDeadlineOfItsNewestPushAndAnsweredCountsAsFired() {
        answered(expiry("t-1", 5_000, 1, 5_100));

        FiringTally.Figures figures = tally(TIMELINE);

        assertThat(figures.expected()).isEqualTo(1);
        assertThat(figures.fired()).isEqualTo(1);
        assertThat(figures.missed()).isZero();
        assertThat(figures.slowestFiring()).isEqualTo(100);
        assertThat(figures.falseExpiries()).isZero();
        assertThat(figures.pullsLost()).isZero();
    }

    @Test
    void anExpiryLaterThanTheGraceAfterDeadlineAndRecoveryIsMissed() {
        answered(expiry("t-1", 5_000, 1, 10_100));

        assertThat(tally(TIMELINE).missed()).isEqualTo(1);
        assertThat(tally(TIMELINE).slowestFiring()).isEqualTo(5_100);
        assertThat(tally(new Timeline(0, 6_000, 12_000, 15_000)).missed()).isZero();
        assertThat(tally(new Timeline(0, 6_000, 12_000, 15_000)).slowestFiring())
                .isEqualTo(4_100);
    }

    @Test
    void anExpiryCountedFromAnOlderPushIsFalseAndTheOrderMissed() {
        answered(expiry("t-1", 4_000, 1, 4_100));

        FiringTally.Figures figures = tally(TIMELINE);

        assertThat(figures.missed()).isEqualTo(1);
        assertThat(figures.slowestFiring()).isEqualTo(-1);
        assertThat(figures.falseExpiries()).isEqualTo(1);
    }

    @Test
    void expiriesOfOrdersThatPushedWithinTheTtlBeforeTheDeadlineAreFalse() {
        answered(expiry("t-3", 6_000, 1, 6_100));
        answered(expiry("t-4", 6_000, 1, 6_100));

        FiringTally.Figures figures = tally(TIMELINE);

        assertThat(figures.falseExpiries()).isEqualTo(2);
        assertThat(figures.falseOrders()).isEqualTo(2);
        assertThat(figures.examples())
                .anyMatch(e -> e.contains(
                        "t-3 (attempt 1) appended 0.1 s after its deadline, " + "though it pushed 0.0 s before it"));
    }

    @Test
    void expiriesOfAFinishedOrderAreFalse() {
        answered(expiry("t-2", 5_000, 1, 5_100));
        answered(expiry("t-2", 9_000, 2, 9_100));

        assertThat(tally(TIMELINE).falseExpiries()).isEqualTo(2);
    }

    @Test
    void anExpiryAppendedBeforeItsDeadlineIsFalseAndDoesNotCountAsFired() {
        answered(expiry("t-1", 5_000, 1, 4_900));

        FiringTally.Figures figures = tally(TIMELINE);

        assertThat(figures.falseExpiries()).isEqualTo(1);
        assertThat(figures.fired()).isZero();
    }

    @Test
    void aRepeatAfterAPullOfTheSilentOrderIsNotFalse() {
        answered(expiry("t-1", 5_000, 1, 5_100));
        answered(expiry("t-1", 8_200, 1, 8_250));

        assertThat(tally(TIMELINE).falseExpiries()).isZero();
    }

    @Test
    void copiesOfAnExpiryAreDuplicatesJudgedOnce() {
        Seen.Expiry first = expiry("t-3", 6_000, 1, 6_100);
        answered(first);
        expiries.add(first);

        FiringTally.Figures figures = tally(TIMELINE);

        assertThat(figures.duplicates()).isEqualTo(1);
        assertThat(figures.falseExpiries()).isEqualTo(1);
    }

    @Test
    void anExpiryWithoutAPullResultIsLostOnlyWhenItWasDueForOne() {
        expiries.add(expiry("t-1", 5_000, 1, 5_100));
        expiries.add(expiry("t-1", 13_000, 1, 13_100));
        pulls.add(new Seen.Pull("t-1", 5_000, 2, "OK", 5_100L, false, 5_100));

        assertThat(tally(TIMELINE).pullsLost()).isEqualTo(1);
    }

    @Test
    void expiriesOfOtherScenariosOrdersAndOutsideTheObservationDoNotCount() {
        expiries.add(expiry("other-3", 6_000, 1, 6_100));
        expiries.add(expiry("t-3", 17_000, 1, 17_100));

        FiringTally.Figures figures = tally(TIMELINE);

        assertThat(figures.falseExpiries()).isZero();
        assertThat(figures.pullsLost()).isZero();
    }

    private FiringTally.Figures tally(Timeline timeline) {
        return FiringTally.of(workload, pushes, expiries, pulls, timeline, TTL, GRACE);
    }

    private static Seen.Expiry expiry(String orderId, long deadline, int attempt, long appendedAt) {
        return new Seen.Expiry(orderId, deadline, deadline - TTL.toMillis(), attempt, "timer", appendedAt);
    }

    private void answered(Seen.Expiry expiry) {
        expiries.add(expiry);
        pulls.add(new Seen.Pull(
                expiry.orderId(),
                expiry.deadline(),
                expiry.attempt(),
                "OK",
                expiry.appendedAt(),
                false,
                expiry.appendedAt()));
    }
}
