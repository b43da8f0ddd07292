package io.lapse.puller.deciding;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.PullResult;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecentPullsTest {

    private final RecentPulls recent = new RecentPulls(2);

    private static TimerExpired expiry(String orderId, long deadline) {
        return new TimerExpired(
                orderId, deadline, deadline - 90_000, 1, deadline + 5, TimerExpired.Source.TIMER, false);
    }

    private static PullResult ok(String orderId, long pulledAt) {
        return PullResult.ok(expiry(orderId, 1_000), new StatusPush(orderId, "CHARGING", 500L, Map.of()), pulledAt);
    }

    @Test
    void anExpiryWhoseOrderWasPulledOkAtOrAfterItsDeadlineIsAnswered() {
        recent.published(ok("o1", 5_000));

        assertThat(recent.answered(expiry("o1", 4_000))).isTrue();
        assertThat(recent.answered(expiry("o1", 5_000))).isTrue();
    }

    @Test
    void anExpiryWhoseDeadlineCameAfterTheOkPullIsNot() {
        recent.published(ok("o1", 5_000));

        assertThat(recent.answered(expiry("o1", 5_001))).isFalse();
    }

    @Test
    void anOrderNeverPulledOkIsNotAnswered() {
        recent.published(PullResult.notFound(expiry("gone", 1_000), 5_000));
        recent.published(PullResult.failed(expiry("refused", 1_000), "upstream answered 503", 5_000));
        recent.published(PullResult.skipped(expiry("pushed", 1_000), 5_000));

        assertThat(recent.answered(expiry("gone", 2_000))).isFalse();
        assertThat(recent.answered(expiry("refused", 2_000))).isFalse();
        assertThat(recent.answered(expiry("pushed", 2_000))).isFalse();
        assertThat(recent.answered(expiry("never", 2_000))).isFalse();
    }

    @Test
    void anEarlierOkPublishedLateDoesNotHideTheLaterOne() {
        recent.published(ok("o1", 9_000));
        recent.published(ok("o1", 5_000));

        assertThat(recent.answered(expiry("o1", 8_000))).isTrue();
    }

    @Test
    void onlyTheMostRecentlyPulledOrdersAreRemembered() {
        recent.published(ok("first", 5_000));
        recent.published(ok("second", 5_000));
        recent.published(ok("first", 6_000));
        recent.published(ok("third", 5_000));

        assertThat(recent.answered(expiry("second", 1_000)))
                .as("the eldest, forgotten")
                .isFalse();
        assertThat(recent.answered(expiry("first", 1_000))).isTrue();
        assertThat(recent.answered(expiry("third", 1_000))).isTrue();
    }
}
