package io.lapse.faults.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.faults.observe.RecordRef;
import io.lapse.faults.observe.Seen;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * ttl 3 s, pushes every second; judged deadlines 0–100 s; pull results due for expiries appended by 110 s. Every
 * order pushes from 1 s on; each test gives one order a history of its own.
 */
class JudgeTest {

    private static final long TTL = 3_000;
    private final List<Seen.Push> pushes = new ArrayList<>();
    private final List<Seen.Expiry> expiries = new ArrayList<>();
    private final List<Seen.Pull> pulls = new ArrayList<>();
    private final List<Seen.DeadLetter> letters = new ArrayList<>();
    private final List<RecordRef> poison = new ArrayList<>();

    @Test
    void aSilenceFiredWithinTheBoundWithItsDeadlineAndPulledHolds() {
        pushEverySecond("chaos-1", 1, 10); // silent after 10 s: deadline 13 s
        expire("chaos-1", 13_000, 10_000, 1, 13_400);
        pull("chaos-1", 13_000, 1, 10_000L, 13_500); // lost: upstream answers the status it last pushed

        Judge.Verdict verdict = judge();

        assertThat(verdict.silences()).isEqualTo(1);
        assertThat(verdict.fired()).isEqualTo(1);
        assertThat(verdict.lateness()).containsExactly(400);
        assertThat(verdict.holds()).isTrue();
    }

    @Test
    void aSilenceFiredLaterThanTheBoundOrNeverIsMissed() {
        pushEverySecond("chaos-1", 1, 10);
        expire("chaos-1", 13_000, 10_000, 1, 13_000 + Judge.BOUND + 1);
        pushEverySecond("chaos-2", 1, 20);

        Judge.Verdict verdict = judge();

        assertThat(verdict.silences()).isEqualTo(2);
        assertThat(verdict.missed()).isEqualTo(2);
        assertThat(verdict.late()).isEqualTo(1);
        assertThat(verdict.examples().get("missed"))
                .anySatisfy(e -> assertThat(e).contains("chaos-2").contains("never heard from again"));
        assertThat(verdict.holds()).isFalse();
    }

    @Test
    void aGapNoLongerThanTheTtlAndAPushIntervalNeedNotFireButAnExpiryOfALiveOrderIsFalse() {
        pushEverySecond("chaos-1", 1, 10);
        pushEverySecond("chaos-1", 13, 200); // missed two pushes: silent exactly a ttl, so live at 13 s
        expire("chaos-1", 13_000, 10_000, 1, 13_100);
        pushEverySecond("chaos-2", 1, 10);
        pushes.add(new Seen.Push("chaos-2", 13_500, false)); // silent 3.5 s: may fire, need not
        pushEverySecond("chaos-2", 14, 200);

        Judge.Verdict verdict = judge();

        assertThat(verdict.silences()).isZero();
        assertThat(verdict.liveFired()).isEqualTo(1);
        assertThat(verdict.examples().get("live fired").get(0)).contains("chaos-1");
    }

    @Test
    void anExpiryOfAFinishedOrderOrBeforeItsDeadlineOrNamingNoStatusIsFalse() {
        pushEverySecond("chaos-1", 1, 9);
        pushes.add(new Seen.Push("chaos-1", 9_500, true));
        expire("chaos-1", 12_500, 9_500, 1, 12_600);
        pushEverySecond("chaos-2", 1, 10);
        expire("chaos-2", 13_000, 10_000, 1, 12_900);
        pull("chaos-2", 13_000, 1, 10_000L, 12_950);
        pushEverySecond("chaos-3", 1, 10);
        expire("chaos-3", 15_300, 12_300, 1, 15_400); // a deadline from no status of the order

        Judge.Verdict verdict = judge();

        assertThat(verdict.finishedFired()).isEqualTo(1);
        assertThat(verdict.early()).isEqualTo(1);
        assertThat(verdict.wrongDeadline()).isEqualTo(1);
        assertThat(verdict.missed())
                .as("chaos-2 fired early, chaos-3 with a wrong deadline")
                .isEqualTo(2);
    }

    @Test
    void anExpiryNeedsAPullResultAndAPulledStatusStartsASilenceOfItsOwn() {
        pushEverySecond("chaos-1", 1, 10);
        expire("chaos-1", 13_000, 10_000, 1, 13_100);
        pull("chaos-1", 13_000, 1, 13_200L, 13_200); // its own pull ends no silence: appended after the deadline
        expire("chaos-1", 16_200, 13_200, 1, 16_300); // re-armed by the pulled status
        expire("chaos-1", 19_300, 13_200, 2, 19_400); // its repeat, never answered

        Judge.Verdict verdict = judge();

        assertThat(verdict.silences()).isEqualTo(2);
        assertThat(verdict.fired()).isEqualTo(2);
        assertThat(verdict.wrongDeadline()).isZero();
        assertThat(verdict.withoutPull()).isEqualTo(2);
    }

    @Test
    void aPulledStatusReadBeforeTheDeadlineMovesItAsItMovesLapses() {
        pushEverySecond("chaos-1", 1, 10);
        pull("chaos-1", 5_000, 2, 12_400L, 12_450); // an older expiry pulled late: upstream heard the order at 12.4 s
        expire("chaos-1", 15_400, 12_400, 1, 19_000);
        pull("chaos-1", 15_400, 1, null, 19_100);

        Judge.Verdict verdict = judge();

        assertThat(verdict.silences()).isEqualTo(1);
        assertThat(verdict.lateness()).containsExactly(3_600);
        assertThat(verdict.holds()).isTrue();
    }

    @Test
    void aPulledStatusAfterTheDeadlineEndsNoSilenceAndOneReadBeforeItMakesItsExpiryFalse() {
        pushEverySecond("chaos-1", 1, 10);
        pull("chaos-1", 5_000, 2, 13_500L, 13_600); // an older expiry pulled just after the deadline
        expire("chaos-1", 16_500, 13_500, 1, 16_600);
        pushEverySecond("chaos-2", 1, 10);
        pull("chaos-2", 5_000, 2, 12_400L, 12_500);
        expire("chaos-2", 13_000, 10_000, 1, 13_100);
        expire("chaos-2", 15_400, 12_400, 1, 15_500);
        pushEverySecond("chaos-3", 1, 10);
        pull("chaos-3", 5_000, 2, 12_400L, 13_500); // heard before the deadline, read after it: may fire, need not
        expire("chaos-3", 15_400, 12_400, 1, 15_500);

        Judge.Verdict verdict = judge();

        assertThat(verdict.silences()).isEqualTo(4);
        assertThat(verdict.missed()).isEqualTo(1);
        assertThat(verdict.examples().get("missed"))
                .singleElement()
                .asString()
                .contains("chaos-1: silent after its push at 10.0 s", "heard from again", "its pulled status");
        assertThat(verdict.liveFired()).isEqualTo(1);
        assertThat(verdict.examples().get("live fired"))
                .singleElement()
                .asString()
                .contains("chaos-2", "it spoke at 12.4 s");
    }

    @Test
    void anOrderPulledFinishedIsNeverToFireAgain() {
        pushEverySecond("chaos-1", 1, 10);
        expire("chaos-1", 13_000, 10_000, 1, 13_100);
        pulls.add(new Seen.Pull("chaos-1", 13_000, 1, "OK", 11_000L, true, 13_200));
        expire("chaos-1", 16_000, 10_000, 2, 16_100);

        Judge.Verdict verdict = judge();

        assertThat(verdict.fired()).isEqualTo(1);
        assertThat(verdict.finishedFired()).isEqualTo(1);
    }

    @Test
    void deadLettersMustBeThePoisonsOneEach() {
        pushEverySecond("chaos-1", 1, 200);
        RecordRef sent = new RecordRef("push", 0, 7);
        poison.add(sent);
        poison.add(new RecordRef("push", 1, 8));
        letters.add(new Seen.DeadLetter(sent, null, "not JSON", 5_000));
        letters.add(new Seen.DeadLetter(new RecordRef("expired", 2, 3), "chaos-1", "upstream: 503", 6_000));

        Judge.Verdict verdict = judge();

        assertThat(verdict.poisonWithoutLetter()).isEqualTo(1);
        assertThat(verdict.unexpectedLetters()).isEqualTo(1);
        assertThat(verdict.unexpectedByWhy()).containsEntry("upstream", 1);
    }

    private void pushEverySecond(String order, long fromSecond, long toSecond) {
        LongStream.rangeClosed(fromSecond, toSecond).forEach(s -> pushes.add(new Seen.Push(order, s * 1_000, false)));
    }

    private void expire(String order, long deadline, long lastSeen, int attempt, long appendedAt) {
        expiries.add(new Seen.Expiry(order, deadline, lastSeen, attempt, "timer", appendedAt));
    }

    /** @param statusTs the status upstream answered; null for a pull that failed */
    private void pull(String order, long deadline, int attempt, Long statusTs, long appendedAt) {
        pulls.add(new Seen.Pull(
                order, deadline, attempt, statusTs == null ? "FAILED" : "OK", statusTs, false, appendedAt));
    }

    private Judge.Verdict judge() {
        return Judge.judge(new Judge.Inputs(
                pushes,
                expiries,
                pulls,
                letters,
                Set.copyOf(poison),
                TTL,
                1_000,
                0,
                100_000,
                110_000,
                (from, to) -> "",
                moment -> moment / 1000.0 + " s"));
    }
}
