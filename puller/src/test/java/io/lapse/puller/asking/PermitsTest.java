package io.lapse.puller.asking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The rate limit counts orders: a request for k orders takes k permits. */
class PermitsTest {

    private final Permits permits = new Permits(100, new SimpleMeterRegistry().timer("waits"), () -> true);

    @Test
    void aRequestForSeveralOrdersTakesAPermitEachSoThatTheRateHoldsInOrders() throws Exception {
        long began = System.nanoTime();
        permits.acquire(10);
        permits.acquire(10);
        permits.acquire(1);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);

        // 21 orders at 100 a second: the 21st slot is 200 ms after the first
        assertThat(tookMillis).isGreaterThanOrEqualTo(190);
    }

    @Test
    void noRequestTakesMoreThanASecondsPermits() {
        assertThat(permits.most()).isEqualTo(100);
        assertThatThrownBy(() -> permits.acquire(101)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> permits.acquire(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
