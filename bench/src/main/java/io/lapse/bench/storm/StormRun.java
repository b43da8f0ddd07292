package io.lapse.bench.storm;

import io.lapse.bench.harness.BenchServices;
import io.lapse.bench.harness.ExpiryCollector;
import io.lapse.bench.harness.PulledLog;
import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.harness.RunSandbox;
import io.lapse.bench.lateness.Lateness;
import io.lapse.bench.puller.PullRateRun;
import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStack;
import io.lapse.devstack.TopicRecorder;
import io.lapse.event.FleetEvent;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.lifecycle.ServiceName;
import io.lapse.metrics.MetricNames;
import io.lapse.runtime.LapseRuntime;
import io.lapse.simulator.Fleet;
import io.lapse.simulator.UpstreamSimulator;
import io.lapse.store.timers.OrderView;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The expiry storm on the whole pipeline in one JVM: the simulated fleet pushes until every order is watched and the
 * fleet-silence baseline is established; then every push stops at once for the silence while upstream keeps
 * answering pulls, and resumes. Ingest, timer and puller run as the launcher runs them; the run reads back what they
 * published.
 */
public final class StormRun {

    private static final Logger log = LoggerFactory.getLogger(StormRun.class);
    private static final Duration SLACK = Duration.ofMinutes(2);
    private static final Duration LOOK = Duration.ofMillis(500);

    private StormRun() {}

    static StormResult run(DevStack stack, RedisProbe probe, StormBenchOptions options) throws Exception {
        Map<String, String> settings = Map.of(
                "timer.ttl", options.ttl().toMillis() + "ms",
                "upstream.rate-limit", Integer.toString(options.rateLimit()),
                "upstream.concurrency", Integer.toString(options.concurrency()),
                "fleet.window", options.fleetWindow().toMillis() + "ms",
                "fleet.baseline", options.fleetBaseline().toMillis() + "ms");
        try (RunSandbox sandbox = RunSandbox.open(stack, probe, "storm", settings);
                UpstreamSimulator upstream =
                        PullRateRun.simulatedUpstream(sandbox, options.latency(), options.pushInterval())) {
            LapseConfig config = sandbox.config.with(Map.of("upstream.base-url", upstream.baseUrl()));
            try (LapseRuntime lapse = BenchServices.start(
                    config, EnumSet.of(ServiceName.INGEST, ServiceName.TIMER, ServiceName.PULLER))) {
                return storm(stack, sandbox, config, upstream, lapse, options);
            }
        }
    }

    private static StormResult storm(
            DevStack stack,
            RunSandbox sandbox,
            LapseConfig config,
            UpstreamSimulator upstream,
            LapseRuntime lapse,
            StormBenchOptions options)
            throws Exception {
        Fleet fleet = upstream.fleet();
        List<String> orders = fleet.startMany(options.orders(), "storm-");
        long pushesBegan = System.currentTimeMillis();
        Duration warmUp = options.fleetWindow().plus(options.fleetBaseline()).plus(SLACK);
        await("all " + orders.size() + " orders watched", warmUp, () -> allWatched(lapse, orders));
        // a silence is judged against the baseline: before it exists, no silence could be told
        // the gauge reports a baseline from a partial span already: the whole fleet.baseline must have passed
        long baselineSpan = pushesBegan
                + options.fleetWindow().plus(options.fleetBaseline()).toMillis();
        await(
                "the fleet's push baseline",
                warmUp,
                () -> System.currentTimeMillis() >= baselineSpan && gauge(lapse, MetricNames.FLEET_PUSH_BASELINE) > 0);
        long ttl = options.ttl().toMillis();
        String servers = stack.bootstrapServers();
        try (ExpiryCollector expired =
                        ExpiryCollector.start(servers, config.topics().expired());
                TopicRecorder fleetEvents =
                        TopicRecorder.start(servers, config.topics().fleetEvents())) {
            long callsBefore = orders.stream().mapToLong(fleet::pullsServed).sum();
            long silenceStart = System.currentTimeMillis();
            orders.forEach(fleet::silence);
            log.info("storm: {} orders silent for {}", orders.size(), options.silence());
            try (PulledLog pulled = new PulledLog(servers, config.topics().pulled(), silenceStart);
                    StormSampler sampler = StormSampler.start(
                            silenceStart,
                            () -> (long) gauge(lapse, MetricNames.PULLER_BACKLOG_ALL),
                            upstream.api()::totalRequests)) {
                Thread.sleep(options.silence().toMillis());
                long resumed = System.currentTimeMillis();
                orders.forEach(fleet::resume);
                log.info("storm: pushes resumed after {} ms", resumed - silenceStart);
                // an expiry that fires for a resumed order does so within a ttl of its first push, by a push interval
                long settled = resumed + ttl + 2 * options.pushInterval().toMillis();
                Duration tail = Duration.ofMillis(settled - System.currentTimeMillis())
                        .plus(options.fleetWindow().multipliedBy(2))
                        .plus(SLACK);
                // what does not settle in time is reported as it stands, not lost with the run
                if (!within(
                        tail,
                        () -> System.currentTimeMillis() >= settled
                                && gauge(lapse, MetricNames.PULLER_BACKLOG_ALL) == 0
                                && ended(fleetEvents))) {
                    log.warn(
                            "storm: the backlog did not drain or the silence did not end within {} s",
                            tail.toSeconds());
                }
                pulled.refresh();
                List<ExpiryCollector.Expiry> expiries = expired.expiries();
                List<FleetEvent> events = fleetEvents.values(JsonCodec.FLEET_EVENT::decode);
                return tally(
                        options,
                        silenceStart,
                        resumed,
                        expiries,
                        pulled,
                        orders.stream().mapToLong(fleet::pullsServed).sum() - callsBefore,
                        sampler,
                        events,
                        () -> PushLog.since(
                                sandbox.clients, config.topics().push(), firstAfter(expiries, resumed) - ttl),
                        pulled.count(PullResult.Outcome.SKIPPED),
                        counter(lapse, MetricNames.PULLER_SKIPPED_ALREADY_PULLED));
            }
        }
    }

    private static StormResult tally(
            StormBenchOptions options,
            long silenceStart,
            long resumed,
            List<ExpiryCollector.Expiry> expiries,
            PulledLog pulled,
            long upstreamCalls,
            StormSampler sampler,
            List<FleetEvent> events,
            Supplier<Map<String, long[]>> pushes,
            long skipped,
            long skippedAlreadyPulled) {
        long ttl = options.ttl().toMillis();
        List<ExpiryCollector.Expiry> inStorm = firedBetween(expiries, silenceStart, resumed);
        long fleetsFirst = fleetsFirstAppended(inStorm, silenceStart, options.ttl(), options.pushInterval());
        ExpiryRates rates = rates(inStorm, ttl);
        Lateness lateness = lateness(inStorm);
        CallsPerTtl calls = calls(pulled.results(), silenceStart, ttl);
        Map<String, Long> firstPulls = pulled.firstOkSince();
        long lastPulled =
                firstPulls.values().stream().mapToLong(Long::longValue).max().orElse(fleetsFirst);
        List<FalseExpiries.Fired> afterResume = expiries.stream()
                .filter(e -> e.firedAt() >= resumed)
                .map(e -> new FalseExpiries.Fired(e.orderId(), e.deadline()))
                .toList();
        long falseAfterResume = afterResume.isEmpty() ? 0 : FalseExpiries.count(afterResume, pushes.get(), ttl);
        return new StormResult(
                options,
                rates,
                lateness,
                StormLatenessParts.of(inStorm),
                calls,
                upstreamCalls,
                firstPulls.size(),
                lastPulled - fleetsFirst,
                laterCallsBefore(pulled.results(), silenceStart, lastPulled),
                sampler.peakBacklog(),
                afterResume.size(),
                falseAfterResume,
                firstAt(events, FleetEvent.Kind.SILENCE_STARTED, silenceStart),
                firstAt(events, FleetEvent.Kind.SILENCE_ENDED, resumed),
                skipped,
                skippedAlreadyPulled,
                sampler.samples());
    }

    /** The expiries the timer fired (by Redis's clock) in [from, to), epoch ms: a storm's, from its start. */
    public static List<ExpiryCollector.Expiry> firedBetween(List<ExpiryCollector.Expiry> expiries, long from, long to) {
        return expiries.stream()
                .filter(e -> e.firedAt() >= from && e.firedAt() < to)
                .toList();
    }

    /**
     * When the fleet's first expiry, the first the silence caused, reached Kafka; {@code silenceStart} without any.
     * The drain counts from it. Every order that was pushing when the pushes stopped had pushed within the push
     * interval before, so its deadline is at least {@code silenceStart + ttl - pushInterval}. An expiry due earlier belongs to an order silent before the storm
     * (the soak's orders silent for good are pulled every ttl, their expiries spread over it): counting from such an
     * expiry would charge the drain with the time before the fleet's deadlines even came due, up to a ttl.
     */
    public static long fleetsFirstAppended(
            List<ExpiryCollector.Expiry> inStorm, long silenceStart, Duration ttl, Duration pushInterval) {
        long fleetDue = silenceStart + ttl.minus(pushInterval).toMillis();
        return inStorm.stream()
                .filter(e -> e.deadline() >= fleetDue)
                .mapToLong(ExpiryCollector.Expiry::appendTime)
                .min()
                .orElse(silenceStart);
    }

    /**
     * Calls (every result but SKIPPED) from {@code since} up to {@code until} that were not their order's first call
     * since {@code since}.
     */
    public static long laterCallsBefore(List<PullResult> results, long since, long until) {
        List<PullResult> calls = results.stream()
                .filter(r -> r.outcome() != PullResult.Outcome.SKIPPED && r.pulledAt() >= since)
                .sorted(Comparator.comparingLong(PullResult::pulledAt))
                .toList();
        Set<String> called = new HashSet<>();
        long later = 0;
        for (PullResult call : calls) {
            if (!called.add(call.orderId()) && call.pulledAt() <= until) {
                later++;
            }
        }
        return later;
    }

    public static ExpiryRates rates(List<ExpiryCollector.Expiry> inStorm, long ttlMillis) {
        return ExpiryRates.of(
                inStorm.stream().mapToLong(ExpiryCollector.Expiry::appendTime).toArray(), ttlMillis);
    }

    /** Of the attempt-1 expiries: each silent order's first, and each one after a pull re-armed it. */
    public static Lateness lateness(List<ExpiryCollector.Expiry> inStorm) {
        return Lateness.of(inStorm.stream()
                .filter(e -> e.attempt() == 1)
                .mapToLong(e -> e.appendTime() - e.deadline())
                .toArray());
    }

    /** Every pull result but SKIPPED is an upstream call. */
    public static CallsPerTtl calls(List<PullResult> results, long start, long ttlMillis) {
        return CallsPerTtl.of(
                results.stream()
                        .filter(r -> r.outcome() != PullResult.Outcome.SKIPPED)
                        .map(r -> new CallsPerTtl.Call(r.orderId(), r.pulledAt()))
                        .toList(),
                start,
                ttlMillis);
    }

    /** The earliest deadline among expiries fired from {@code from} on; {@code from} without any. */
    public static long firstAfter(List<ExpiryCollector.Expiry> expiries, long from) {
        return expiries.stream()
                .filter(e -> e.firedAt() >= from)
                .mapToLong(ExpiryCollector.Expiry::deadline)
                .min()
                .orElse(from);
    }

    /** ms from {@code origin} until the first event of the kind decided at or after it. */
    public static OptionalLong firstAt(List<FleetEvent> events, FleetEvent.Kind kind, long origin) {
        return events.stream()
                .filter(e -> e.event() == kind && e.at() >= origin)
                .mapToLong(e -> e.at() - origin)
                .min();
    }

    private static boolean ended(TopicRecorder fleetEvents) {
        return fleetEvents.values(JsonCodec.FLEET_EVENT::decode).stream()
                .anyMatch(e -> e.event() == FleetEvent.Kind.SILENCE_ENDED);
    }

    private static boolean allWatched(LapseRuntime lapse, List<String> orders) {
        try {
            return lapse.store().inspect(orders).get().values().stream().allMatch(OrderView::isWatched);
        } catch (Exception e) {
            throw new IllegalStateException("cannot inspect the orders: " + e.getMessage(), e);
        }
    }

    /** The gauge's value, -1 while the service has not registered it. */
    private static double gauge(LapseRuntime lapse, String name) {
        Gauge gauge = lapse.registry().find(name).gauge();
        return gauge == null ? -1 : gauge.value();
    }

    private static long counter(LapseRuntime lapse, String name) {
        Counter counter = lapse.registry().find(name).counter();
        return counter == null ? 0 : (long) counter.count();
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        if (!within(timeout, condition)) {
            throw new IllegalStateException(what + " not reached within " + timeout.toSeconds() + " s");
        }
    }

    /** @return whether the condition held before the timeout */
    private static boolean within(Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(LOOK.toMillis());
        }
        return true;
    }
}
