package io.lapse.puller.asking;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.lapse.time.SettableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** An outage is said once when the circuit opens, with its cause, and ends when it closes. */
class OutageTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final CircuitBreaker breaker = CircuitBreaker.ofDefaults("upstream");
    private final SettableClock clock = SettableClock.at(1_700_000_000_000L);
    private final Outage outage = new Outage(breaker, clock, registry);

    private double on(String cause) {
        return registry.get("lapse.puller.outage").tag("cause", cause).gauge().value();
    }

    private double since() {
        return registry.get("lapse.puller.outage.since").gauge().value();
    }

    @Test
    void theCauseCountedLastBeforeTheCircuitOpensIsTheOutagesUntilItClosesAgain() {
        assertThat(on("credentials")).isZero();
        assertThat(since()).isZero();

        outage.failed(Outage.Cause.UNANSWERED, "upstream answered 503");
        outage.failed(Outage.Cause.CREDENTIALS, "upstream answered 401");
        breaker.transitionToOpenState();
        clock.advance(java.time.Duration.ofSeconds(5));
        breaker.transitionToHalfOpenState();
        outage.failed(Outage.Cause.UNANSWERED, "a probe timed out");
        breaker.transitionToOpenState();

        assertThat(on("credentials"))
                .as("the probe's failure is the same outage going on")
                .isEqualTo(1);
        assertThat(on("unanswered")).isZero();
        assertThat(since()).isEqualTo(1_700_000_000.0);

        breaker.transitionToHalfOpenState();
        breaker.transitionToClosedState();

        assertThat(on("credentials")).isZero();
        assertThat(since()).isZero();
    }
}
