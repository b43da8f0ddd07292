package io.lapse.store.timers.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lapse.event.TimerExpired;
import io.lapse.store.timers.Claim;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The claims as the claim scripts return them and the acknowledgement takes them: fields joined by tabs. */
class PackedClaimsTest {

    private static final long FIRED_AT = 1_763_780_090_123L;

    @Test
    void aReplyIsReadAsOneClaimPerFiveFieldsWithTheClaimsClockAndFinalAttempt() {
        String reply = String.join("\t", "o|1 x", "1000", "1", "91000", "t", "o2", "2000", "3", "92000", "c");

        List<Claim> claims = PackedClaims.read(reply, FIRED_AT, TimerExpired.Source.TIMER, 3);

        assertThat(claims)
                .containsExactly(
                        new Claim("o|1 x", 1_000, 1, 91_000, TimerExpired.Source.TIMER, FIRED_AT, false),
                        new Claim("o2", 2_000, 3, 92_000, TimerExpired.Source.COMPENSATOR, FIRED_AT, true));
    }

    @Test
    void anEmptyReplyHoldsNoClaim() {
        assertThat(PackedClaims.read("", FIRED_AT, TimerExpired.Source.KEYSPACE, 3))
                .isEmpty();
    }

    @Test
    void aReplyCutShortIsAnErrorRatherThanAClaimMadeUp() {
        assertThatThrownBy(() -> PackedClaims.read("o1\t1000\t1", FIRED_AT, TimerExpired.Source.TIMER, 3))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anAcknowledgementCarriesOrderIdAttemptDeadlineAndFiredAtOfEachClaim() {
        List<Claim> claims = List.of(
                new Claim("o|1 x", 1_000, 1, 91_000, TimerExpired.Source.TIMER, 91_002, false),
                new Claim("o2", 2_000, 2, 92_000, TimerExpired.Source.TIMER, 92_001, false));

        assertThat(PackedClaims.write(claims)).isEqualTo("o|1 x\t1\t91000\t91002\to2\t2\t92000\t92001");
    }
}
