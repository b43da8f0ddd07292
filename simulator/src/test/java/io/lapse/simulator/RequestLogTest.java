package io.lapse.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RequestLogTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final RequestLog log = new RequestLog();

    @Test
    void requestsWithinOneSecondCountTogether() {
        for (int i = 0; i < 5; i++) {
            log.record("o-1", i * 200 * MS - 1);
        }

        assertThat(log.peakPerSecond()).isEqualTo(5);
        assertThat(log.requests("o-1")).isEqualTo(5);
    }

    @Test
    void aRequestASecondOrMoreAfterAnotherDoesNotCountWithIt() {
        log.record("o-1", 0);
        log.record("o-2", 1_000 * MS);
        log.record("o-3", 2_500 * MS);

        assertThat(log.peakPerSecond()).isEqualTo(1);
        assertThat(log.total()).isEqualTo(3);
    }

    @Test
    void thePeakStaysAfterTheBusySecondHasPassed() {
        log.record("o-1", 0);
        log.record("o-1", 10 * MS);
        log.record("o-1", 5_000 * MS);

        assertThat(log.peakPerSecond()).isEqualTo(2);
    }
}
