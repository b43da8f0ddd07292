package io.lapse.puller;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.lapse.event.PullResult;
import io.lapse.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * What the puller counts: pulls by outcome, upstream's latency, waits for rate permits, the circuit's state, pulls
 * waiting for upstream, duplicates, expiries skipped as already pulled, expiries in flight, how fast the backlog
 * drains, and the bulk requests: their orders, the orders they left to single pulls, and whether they are off.
 */
final class PullerMetrics {

    private final MeterRegistry registry;
    private final Map<PullResult.Outcome, Counter> pulls = new EnumMap<>(PullResult.Outcome.class);
    private final Timer request;
    private final Timer permitWait;
    private final Counter duplicates;
    private final Counter alreadyPulled;
    private final Timer bulkRequest;
    private final DistributionSummary bulkOrders;
    private final Counter pulledAlone;

    PullerMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (PullResult.Outcome outcome : PullResult.Outcome.values()) {
            pulls.put(
                    outcome,
                    Counter.builder(MetricNames.PULLER_PULLS)
                            .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                            .description("Expiries answered (result acknowledged by Kafka), by pull outcome")
                            .register(registry));
        }
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
                        + "unanswered, missing or not valid in the answer): each is pulled alone")
                .register(registry);
        this.duplicates = Counter.builder("lapse.puller.duplicates")
                .description("Expiries answered by the answer to an earlier one of the same triple, without a pull")
                .register(registry);
        this.alreadyPulled = Counter.builder(MetricNames.PULLER_SKIPPED_ALREADY_PULLED)
                .description("Expiries answered SKIPPED without a call because this puller had pulled the order OK at "
                        + "or after their deadline (also counted in lapse.puller.pulls{outcome=skipped})")
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

    /** Metric name of the final pulls held for an answer. */
    static final String HELD = MetricNames.PULLER_HELD;

    void pulled(PullResult.Outcome outcome) {
        pulls.get(outcome).increment();
    }

    void duplicate() {
        duplicates.increment();
    }

    void alreadyPulled() {
        alreadyPulled.increment();
    }

    /** @param backlog the expiries not answered yet, over every partition read */
    void watchDrain(LongSupplier backlog, DrainRate drain) {
        Gauge.builder(MetricNames.PULLER_DRAIN_RATE, drain, DrainRate::perSecond)
                .description("Expiries answered per second over the last minute")
                .strongReference(true)
                .register(registry);
        Gauge.builder(
                        MetricNames.PULLER_DRAIN_ETA,
                        () -> DrainRate.secondsToDrain(backlog.getAsLong(), drain.perSecond()))
                .baseUnit("seconds")
                .description("Seconds until the backlog is drained at the drain rate: 0 without a backlog, -1 while "
                        + "there is one and nothing was answered within the last minute")
                .strongReference(true)
                .register(registry);
    }

    void watch(IntSupplier inFlight, IntSupplier waiting, IntSupplier held, CircuitBreaker breaker) {
        Gauge.builder("lapse.puller.in.flight", inFlight, IntSupplier::getAsInt)
                .description("Expiries polled whose result Kafka has not acknowledged yet")
                .strongReference(true)
                .register(registry);
        Gauge.builder("lapse.puller.waiting", waiting, IntSupplier::getAsInt)
                .description("Pulls waiting for upstream on a pull thread: held by the open circuit")
                .strongReference(true)
                .register(registry);
        Gauge.builder(HELD, held, IntSupplier::getAsInt)
                .description("Final pulls upstream has not answered, tried again off the pull threads until it does, "
                        + "or the order has news (lapse cancel lets one go)")
                .strongReference(true)
                .register(registry);
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
