package io.lapse.puller;

import io.lapse.event.PullResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/** What the puller counts: pulls by outcome, each upstream request's time, expiries in flight, the circuit. */
final class PullerMetrics {

    private final MeterRegistry registry;
    private final Map<PullResult.Outcome, Counter> pulls = new EnumMap<>(PullResult.Outcome.class);
    private final Timer request;

    PullerMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (PullResult.Outcome outcome : PullResult.Outcome.values()) {
            pulls.put(outcome, Counter.builder("lapse.puller.pulls")
                    .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                    .description("Expiries answered, by pull outcome").register(registry));
        }
        this.request = Timer.builder("lapse.puller.request").description("One HTTP request to upstream")
                .publishPercentiles(0.5, 0.99).register(registry);
    }

    Timer request() {
        return request;
    }

    void pulled(PullResult.Outcome outcome) {
        pulls.get(outcome).increment();
    }

    void watch(IntSupplier inFlight, BooleanSupplier circuitOpen) {
        Gauge.builder("lapse.puller.in.flight", inFlight, IntSupplier::getAsInt)
                .description("Expiries polled whose result Kafka has not acknowledged yet")
                .strongReference(true).register(registry);
        Gauge.builder("lapse.puller.circuit.open", circuitOpen, open -> open.getAsBoolean() ? 1 : 0)
                .description("1 while the circuit breaker fails pulls fast, else 0")
                .strongReference(true).register(registry);
    }
}
