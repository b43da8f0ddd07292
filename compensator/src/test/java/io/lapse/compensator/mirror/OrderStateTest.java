package io.lapse.compensator.mirror;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.OrderUpdate;
import io.lapse.store.timers.TimerImage;
import io.lapse.store.timers.TimerImage.Phase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The mirror's rules: each sequence of inputs, and what Redis should then hold for the order. */
class OrderStateTest {

    private static final Duration TTL = Duration.ofSeconds(90);
    private static final Duration REPEAT = Duration.ofSeconds(60);
    private static final long T = 1_763_780_000_000L;

    private static MirrorInput push(long ts) {
        return new MirrorInput.Status(OrderUpdate.active("o1", ts));
    }

    private static MirrorInput finished(long ts) {
        return new MirrorInput.Status(OrderUpdate.terminal("o1", ts));
    }

    private static MirrorInput notFound(long pulledAt) {
        return new MirrorInput.Status(OrderUpdate.gone("o1", pulledAt));
    }

    /** The expiry the timer publishes as attempt n for lastSeen, each firing a minute after the one before. */
    private static Fired fired(long lastSeen, int attempt, boolean last) {
        long firedAt = lastSeen + TTL.toMillis() + (attempt - 1) * REPEAT.toMillis() + 5;
        long deadline = attempt == 1 ? lastSeen + TTL.toMillis() : firedAt - 5;
        return new Fired("o1", lastSeen, attempt, deadline, firedAt, last);
    }

    private static OrderState after(MirrorInput... inputs) {
        OrderState state = null;
        for (MirrorInput input : inputs) {
            state = input.applyTo(state);
        }
        return state;
    }

    private static TimerImage image(MirrorInput... inputs) {
        OrderState state = after(inputs);
        return state == null ? null : state.image("o1", TTL, REPEAT);
    }

    @Test
    void aPushArmsTheFirstAttemptAtItsEventTimePlusTtl() {
        assertThat(image(push(T))).isEqualTo(new TimerImage("o1", Phase.WATCHED, T, 0, 0, T + TTL.toMillis()));
        assertThat(image(push(T)).nextAttempt()).isEqualTo(1);
    }

    @Test
    void olderAndDuplicatePushesChangeNothingAndANewerOneWins() {
        assertThat(image(push(T), push(T - 5_000), push(T))).isEqualTo(image(push(T)));
        assertThat(image(push(T), push(T + 1_000))).isEqualTo(image(push(T + 1_000)));
    }

    @Test
    void afterAnExpiryTheNextAttemptIsDueOneRepeatAfterItFired() {
        Fired first = fired(T, 1, false);

        TimerImage image = image(push(T), first);

        assertThat(image.phase()).isEqualTo(Phase.WATCHED);
        assertThat(image.nextAttempt()).isEqualTo(2);
        assertThat(image.firedDeadline()).isEqualTo(T + TTL.toMillis());
        assertThat(image.at()).isEqualTo(first.firedAt() + REPEAT.toMillis());
    }

    @Test
    void theFinalAttemptGivesTheOrderUpAndAPushNoNewerThanItsStatusCannotRevive() {
        TimerImage givenUp = image(push(T), fired(T, 1, false), fired(T, 2, true));

        assertThat(givenUp)
                .isEqualTo(new TimerImage(
                        "o1",
                        Phase.GIVEN_UP,
                        T,
                        2,
                        fired(T, 2, true).deadline(),
                        fired(T, 2, true).firedAt()));
        assertThat(image(push(T), fired(T, 1, false), fired(T, 2, true), push(T)))
                .isEqualTo(givenUp);
    }

    @Test
    void aNewerStatusStartsTheAttemptsAgainAndStaleExpiriesOfTheOldOneChangeNothing() {
        long later = T + 200_000;

        assertThat(image(push(T), fired(T, 1, false), fired(T, 2, true), push(later), fired(T, 1, false)))
                .isEqualTo(image(push(later)));
    }

    @Test
    void anExpiryReadBeforeItsStatusStandsForThatStatusSoTheStatusDoesNotResetTheAttempts() {
        assertThat(image(fired(T, 1, false), push(T))).isEqualTo(image(push(T), fired(T, 1, false)));
    }

    @Test
    void ofTwoCopiesOfOneExpiryTheLaterFiredAtCountsAsTheTimerAcknowledgedIt() {
        Fired first = fired(T, 1, false);
        Fired again = new Fired("o1", T, 1, first.deadline(), first.firedAt() + 30_000, false);

        assertThat(image(push(T), first, again).at()).isEqualTo(again.firedAt() + REPEAT.toMillis());
        assertThat(image(push(T), again, first).at()).isEqualTo(again.firedAt() + REPEAT.toMillis());
    }

    @Test
    void aTerminalStatusLeavesATombstoneThatNoStatusOrExpiryRevives() {
        TimerImage tombstone = new TimerImage("o1", Phase.ENDED, T + 1_000, 0, 0, T + 1_000);

        assertThat(image(push(T), finished(T + 1_000))).isEqualTo(tombstone);
        assertThat(image(push(T), finished(T + 1_000), push(T - 5_000), fired(T, 1, false)))
                .isEqualTo(tombstone);
        assertThat(image(push(T), finished(T + 1_000), push(T + 5_000), fired(T, 1, false)))
                .as("a push after the end keeps the tombstone, aged from that push")
                .isEqualTo(new TimerImage("o1", Phase.ENDED, T + 5_000, 0, 0, T + 5_000));
        assertThat(image(push(T + 5_000), finished(T + 1_000)).phase())
                .as("a terminal status wins whatever its ts")
                .isEqualTo(Phase.ENDED);
    }

    @Test
    void anOrderThatKeepsPushingAfterItsEndIsNotForgottenAfterTheRetentionFromItsEnd() {
        OrderState ended = after(push(T), finished(T + 1_000));
        OrderState pushedOn = after(push(T), finished(T + 1_000), push(T + 86_400_000L));

        assertThat(pushedOn.phase()).isEqualTo(OrderState.Phase.ENDED);
        assertThat(pushedOn.lastActivity()).isEqualTo(T + 86_400_000L);
        assertThat(OrderState.next(ended, OrderUpdate.active("o1", T + 500)))
                .as("a status older than the newest known changes nothing")
                .isSameAs(ended);
    }

    @Test
    void theTombstoneAgesFromTheNewestTerminalStatus() {
        assertThat(image(finished(T), finished(T + 3_000), finished(T + 1_000)).at())
                .isEqualTo(T + 3_000);
    }

    @Test
    void notFoundForgetsTheOrderInRedisWithoutATombstoneUnlessANewerStatusIsKnown() {
        assertThat(image(push(T), notFound(T + 100_000))).isNull();
        assertThat(image(push(T), notFound(T - 1_000))).isEqualTo(image(push(T)));
        assertThat(image(notFound(T))).isNull();
        assertThat(after(notFound(T))).as("an unknown order stays unknown").isNull();
    }

    @Test
    void afterNotFoundAnExpiryStillInFlightChangesNothingButAnyPushWatchesTheOrderAgain() {
        OrderState gone = after(push(T), notFound(T + 100_000));

        assertThat(fired(T, 2, false).applyTo(gone)).isSameAs(gone);
        assertThat(image(push(T), notFound(T + 100_000), push(T - 10_000))).isEqualTo(image(push(T - 10_000)));
    }

    @Test
    void anInputThatChangesNothingReturnsTheSameStateSoThatNothingIsWritten() {
        OrderState state = after(push(T), fired(T, 1, false));

        assertThat(push(T - 1).applyTo(state)).isSameAs(state);
        assertThat(fired(T, 1, false).applyTo(state)).isSameAs(state);
        assertThat(push(T).applyTo(state)).isSameAs(state);
    }

    @Test
    void pushesAndExpiriesOfOneStatusGiveTheSameImageInWhateverOrderTheyArrive() {
        List<MirrorInput> inputs = new ArrayList<>(List.of(
                push(T - 10_000),
                push(T),
                fired(T, 1, false),
                fired(T, 2, false),
                fired(T, 2, false),
                fired(T - 10_000, 1, false)));
        TimerImage expected = image(inputs.toArray(MirrorInput[]::new));
        for (long seed = 0; seed < 50; seed++) {
            Collections.shuffle(inputs, new java.util.Random(seed));
            assertThat(image(inputs.toArray(MirrorInput[]::new)))
                    .as("order %s", inputs)
                    .isEqualTo(expected);
        }
    }

    @Test
    void everyStateReadsBackFromItsBytesAndTheOldFormatStillReads() {
        List<OrderState> states = List.of(
                after(push(T)),
                after(push(T), fired(T, 1, false)),
                after(push(T), fired(T, 1, false), fired(T, 2, true)),
                after(push(T), finished(T + 1)),
                after(push(T), notFound(T + 100_000)));
        for (OrderState state : states) {
            assertThat(OrderStateSerde.decode(OrderStateSerde.encode(state))).isEqualTo(state);
        }
        byte[] legacyEnded =
                java.nio.ByteBuffer.allocate(9).putLong(T).put((byte) 1).array();
        assertThat(OrderStateSerde.decode(legacyEnded).image("o1", TTL, REPEAT).phase())
                .isEqualTo(Phase.ENDED);
        byte[] legacyActive =
                java.nio.ByteBuffer.allocate(9).putLong(T).put((byte) 0).array();
        assertThat(OrderStateSerde.decode(legacyActive)).isEqualTo(after(push(T)));
    }

    /** Where the silence a push at endedBy ended, after the push at lastSeen, counts from, if it may not have fired. */
    private static long unfired(OrderState before, long lastSeen, long endedBy) {
        return OrderState.unfiredSilence(before, lastSeen, endedBy, TTL);
    }

    @Test
    void aSilenceThatEndedUnfiredCountsFromThePushBeforeItOrTheNewestStatusKnownIfNewer() {
        long none = MirrorInput.Silence.UNKNOWN;
        assertThat(unfired(after(push(T)), T, T + 100_000)).isEqualTo(T);
        assertThat(unfired(after(push(T)), none, T + 100_000))
                .as("the folder read no push before it: the mirror's newest status")
                .isEqualTo(T);
        assertThat(unfired(after(push(T - 60_000)), T, T + 100_000))
                .as("the push before it was not handed over yet")
                .isEqualTo(T);
        assertThat(unfired(after(push(T), push(T + 30_000)), T, T + 100_000))
                .as("a pulled status within the ttl ended the first silence, and the rest was no longer than the ttl")
                .isEqualTo(none);
        assertThat(unfired(after(push(T), push(T + 5_000)), T, T + 100_000))
                .as("a pulled status ended it, and a silence followed it")
                .isEqualTo(T + 5_000);
        assertThat(unfired(null, T, T + 100_000))
                .as("an order the mirror forgot")
                .isEqualTo(T);
        assertThat(unfired(after(push(T), notFound(T + 1_000)), T + 2_000, T + 100_000))
                .as("a push after NOT_FOUND watches the order again")
                .isEqualTo(T + 2_000);
    }

    @Test
    void noSilenceIsUnfiredWhenItsExpiryIsKnownItLastedNoLongerThanTheTtlTheOrderEndedOrIsNotKnown() {
        long none = MirrorInput.Silence.UNKNOWN;
        assertThat(unfired(after(push(T), fired(T, 1, false)), T, T + 100_000))
                .as("the timer's expiry is in")
                .isEqualTo(none);
        assertThat(unfired(after(push(T), fired(T, 1, true)), T, T + 100_000))
                .as("given up")
                .isEqualTo(none);
        assertThat(unfired(after(push(T)), T, T + TTL.toMillis()))
                .as("a live order, its push within the ttl")
                .isEqualTo(none);
        assertThat(unfired(after(push(T), finished(T + 1_000)), T + 2_000, T + 100_000))
                .as("it ended before the silence: no longer watched")
                .isEqualTo(none);
        assertThat(unfired(after(push(T), notFound(T + 1_000)), none, T + 100_000))
                .as("upstream did not know it")
                .isEqualTo(none);
        assertThat(unfired(null, none, T + 100_000)).as("a new order").isEqualTo(none);
        assertThat(unfired(after(push(T), fired(T + 100_000, 1, false)), T, T + 100_000))
                .as("the mirror knows a status as new as the push already: what came between is not known")
                .isEqualTo(none);
    }
}
