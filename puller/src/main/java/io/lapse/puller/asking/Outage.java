package io.lapse.puller.asking;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.event.CircuitBreakerOnStateTransitionEvent;
import io.lapse.config.Durations;
import io.lapse.metrics.MetricNames;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says once that upstream is out, and why: a warning when the circuit opens from closed, naming the last failure it
 * counted, and a line when it closes again, saying how long it lasted; meanwhile {@code lapse_puller_outage{cause}} is
 * 1 and {@code lapse_puller_outage_since_seconds} says since when, for {@code lapse status} and the
 * {@code LapseUpstreamOutage} alert. Half-open probes that fail change nothing here: the outage goes on.
 */
final class Outage {

    private static final Logger log = LoggerFactory.getLogger(Outage.class);

    /** What the circuit counted last before it opened. */
    enum Cause {
        /** 401, 403 or 407: upstream refuses the credentials. */
        CREDENTIALS,
        /** The same refusal for most orders. */
        REFUSALS,
        /** No answer: timeouts, 5xx, 408, 429, no connection, a 404 of the base path. */
        UNANSWERED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Clock clock;
    private volatile Cause lastCause = Cause.UNANSWERED;
    private volatile String lastWhy = "";
    /** The cause of the outage on now, or null. */
    private volatile Cause cause;
    /** When it began, epoch ms. */
    private volatile long since;

    Outage(CircuitBreaker breaker, Clock clock, MeterRegistry registry) {
        this.clock = clock;
        breaker.getEventPublisher().onStateTransition(this::changed);
        for (Cause each : Cause.values()) {
            Gauge.builder(MetricNames.PULLER_OUTAGE, this, o -> o.cause == each ? 1 : 0)
                    .tag("cause", each.label())
                    .description("1 while upstream is out for this cause (the circuit holds pulls back and parks them),"
                            + " else 0")
                    .strongReference(true)
                    .register(registry);
        }
        Gauge.builder(MetricNames.PULLER_OUTAGE_SINCE, this, o -> o.cause == null ? 0 : o.since / 1000.0)
                .baseUnit("seconds")
                .description("When the upstream outage on now began, epoch seconds; 0 without one")
                .strongReference(true)
                .register(registry);
    }

    /** The circuit counted a failure: should it open now, this is why. */
    void failed(Cause cause, String why) {
        lastCause = cause;
        lastWhy = why;
    }

    private synchronized void changed(CircuitBreakerOnStateTransitionEvent event) {
        CircuitBreaker.State to = event.getStateTransition().getToState();
        if (to == CircuitBreaker.State.CLOSED && cause != null) {
            log.info(
                    "upstream answers again after an outage of {}: the pulls parked meanwhile are asked again",
                    Durations.format(Duration.ofMillis(clock.millis() - since)));
            cause = null;
        } else if ((to == CircuitBreaker.State.OPEN || to == CircuitBreaker.State.FORCED_OPEN) && cause == null) {
            cause = lastCause;
            since = clock.millis();
            log.warn(
                    "upstream outage ({}): {}. Pulls are parked (lapse_puller_held) and asked again once upstream "
                            + "answers a probe; none is FAILED for it",
                    cause.label(),
                    lastWhy);
        }
    }
}
