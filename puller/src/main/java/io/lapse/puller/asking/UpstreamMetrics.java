package io.lapse.puller.asking;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.lapse.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * What asking upstream counts: upstream's latency, waits for rate permits, the circuit's state, and the bulk requests:
 * their orders, the orders they left to single pulls, and whether they are off.
 */
final class UpstreamMetrics {

    private final MeterRegistry registry;
    private final Timer request;
    private final Timer permitWait;
    private final Timer bulkRequest;
    private final DistributionSummary bulkOrders;
    private final Counter pulledAlone;

    UpstreamMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.request = Timer.builder(MetricNames.PULLER_REQUEST)
                .description("One HTTP request to upstream")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .register(registry);
        this.permitWait = Timer.builder(MetricNames.PULLER_RATE_LIMIT_WAIT)
                .description("Wait of one upstream request for its permit under upstream.rate-limit")
                .register(registry);
        this.bulkRequest = Timer.builder("lapse.puller.bulk.request")
                .description("One HTTP request to upstream for several orders (upstream.bulk-path)")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        this.bulkOrders = DistributionSummary.builder("lapse.puller.bulk.orders")
                .description("Orders asked for together in one bulk request (its retries not counted again)")
                .register(registry);
        this.pulledAlone = Counter.builder("lapse.puller.bulk.alone")
                .description("Orders a bulk request asked for without an answer that vouches for them (refused, "
                        + "missing or not valid in the answer): each is pulled alone")
                .register(registry);
    }

    Timer request() {
        return request;
    }

    /** One bulk request's HTTP exchange. */
    Timer bulkRequest() {
        return bulkRequest;
    }

    /** A bulk request for this many orders goes out (retries included in it). */
    void bulkRequest(int orders) {
        bulkOrders.record(orders);
    }

    /** Orders a bulk request asked for and did not get an answer to, so that each is pulled alone. */
    void pulledAlone(int orders) {
        if (orders > 0) {
            pulledAlone.increment(orders);
        }
    }

    /** @param off 1 while bulk requests are off after upstream refused one, else 0 */
    void watchBulk(IntSupplier off) {
        Gauge.builder("lapse.puller.bulk.off", off, IntSupplier::getAsInt)
                .description("1 while bulk requests are off because upstream refused one (every pull goes alone), "
                        + "else 0")
                .strongReference(true)
                .register(registry);
    }

    Timer permitWait() {
        return permitWait;
    }

    void watch(CircuitBreaker breaker) {
        Gauge.builder("lapse.puller.circuit.open", breaker, b -> b.getState() == CircuitBreaker.State.CLOSED ? 0 : 1)
                .description("1 while the circuit breaker holds pulls back (open or half-open), else 0")
                .strongReference(true)
                .register(registry);
        for (CircuitBreaker.State state :
                List.of(CircuitBreaker.State.CLOSED, CircuitBreaker.State.OPEN, CircuitBreaker.State.HALF_OPEN)) {
            Gauge.builder("lapse.puller.circuit.state", breaker, b -> b.getState() == state ? 1 : 0)
                    .tag("state", state.name().toLowerCase(Locale.ROOT))
                    .description("1 for the circuit breaker's current state")
                    .strongReference(true)
                    .register(registry);
        }
        breaker.getEventPublisher()
                .onStateTransition(event -> Counter.builder("lapse.puller.circuit.transitions")
                        .tag(
                                "to",
                                event.getStateTransition().getToState().name().toLowerCase(Locale.ROOT))
                        .description("Changes of the circuit breaker's state, by the state entered")
                        .register(registry)
                        .increment());
    }
}
