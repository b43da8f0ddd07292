package io.lapse.bench.puller;

import io.lapse.bench.harness.BenchServices;
import io.lapse.bench.harness.PulledLog;
import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.harness.RunSandbox;
import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStack;
import io.lapse.devstack.TopicRecorder;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.lifecycle.ServiceName;
import io.lapse.runtime.LapseRuntime;
import io.lapse.simulator.Outage;
import io.lapse.simulator.UpstreamSimulator;
import io.lapse.store.timers.OrderView;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovery from an outage on the whole pipeline: N orders push every 15 s until all are watched, then all go silent
 * as upstream starts answering 503 for the outage. Their expiries (ttl 45 s, so one each within a 60 s outage) are
 * held; the run measures from upstream's recovery until every order has an OK pull, and until the held backlog is
 * answered.
 */
final class RecoveryRun {

    private static final Logger log = LoggerFactory.getLogger(RecoveryRun.class);
    private static final Duration PUSH_INTERVAL = Duration.ofSeconds(15);
    private static final Duration TTL = Duration.ofSeconds(45);
    private static final Duration SLACK = Duration.ofMinutes(2);

    private RecoveryRun() {}

    static RecoveryResult run(DevStack stack, RedisProbe probe, PullerBenchOptions options) throws Exception {
        int rate = options.recoveryRateLimit();
        int concurrency = options.concurrencyFor(rate);
        Map<String, String> settings = new LinkedHashMap<>(options.pullerSettings(rate));
        settings.put("timer.ttl", TTL.toMillis() + "ms");
        try (RunSandbox sandbox = RunSandbox.open(stack, probe, "recovery", settings);
                UpstreamSimulator upstream =
                        PullRateRun.simulatedUpstream(sandbox, options.latency(), PUSH_INTERVAL, options.bulkSize())) {
            LapseConfig config = sandbox.config.with(Map.of("upstream.base-url", upstream.baseUrl()));
            try (LapseRuntime services =
                            BenchServices.start(config, EnumSet.of(ServiceName.INGEST, ServiceName.TIMER));
                    BenchPuller ignored = BenchPuller.start(config)) {
                List<String> orders = upstream.fleet().startMany(options.silentOrders(), "silent-");
                awaitWatched(services, orders);
                long recovery = System.currentTimeMillis() + options.outage().toMillis();
                upstream.api().outage(Outage.of(options.outage(), Outage.Kind.ERRORS));
                orders.forEach(upstream.fleet()::silence);
                log.info(
                        "recovery: {} orders silent, upstream down for {} s",
                        orders.size(),
                        options.outage().toSeconds());
                try (TopicRecorder expired = TopicRecorder.start(
                                stack.bootstrapServers(), config.topics().expired());
                        PulledLog pulled = new PulledLog(
                                stack.bootstrapServers(), config.topics().pulled(), recovery)) {
                    Thread.sleep(Math.max(0, recovery - System.currentTimeMillis()));
                    pulled.refresh();
                    int failedInOutage = pulled.count(PullResult.Outcome.FAILED);
                    Set<PulledKey> held = expired.values(JsonCodec.TIMER_EXPIRED::decode).stream()
                            .filter(e -> e.firedAt() < recovery)
                            .map(PulledKey::of)
                            .collect(Collectors.toSet());
                    long answeredBefore = pulled.results().size();
                    long deadline = System.nanoTime()
                            + Duration.ofSeconds(held.size() / rate).plus(SLACK).toNanos();
                    while (!pulled.firstOkSince().keySet().containsAll(orders) && System.nanoTime() < deadline) {
                        Thread.sleep(200);
                        pulled.refresh();
                    }
                    long lastPulled = pulled.firstOkSince().values().stream()
                            .mapToLong(Long::longValue)
                            .max()
                            .orElse(recovery);
                    long drained = pulled.results().stream()
                            .filter(r -> held.contains(PulledKey.of(r)))
                            .mapToLong(PullResult::pulledAt)
                            .max()
                            .orElse(recovery);
                    return new RecoveryResult(
                            orders.size(),
                            options.outage(),
                            rate,
                            concurrency,
                            held.size() - answeredBefore,
                            pulled.firstOkSince().size(),
                            failedInOutage,
                            lastPulled - recovery,
                            drained - recovery,
                            upstream.api().peakRequestsPerSecond());
                }
            }
        }
    }

    private static void awaitWatched(LapseRuntime services, List<String> orders) throws Exception {
        long deadline = System.nanoTime() + PUSH_INTERVAL.plus(SLACK).toNanos();
        while (!services.store().inspect(orders).get().values().stream().allMatch(OrderView::isWatched)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not all " + orders.size() + " orders watched within "
                        + PUSH_INTERVAL.plus(SLACK).toSeconds() + " s");
            }
            Thread.sleep(500);
        }
    }

    /** The triple of an expiry, as its PullResult names it. */
    private record PulledKey(String orderId, PullResult.ExpiryRef expiry) {
        static PulledKey of(TimerExpired expiry) {
            return new PulledKey(expiry.orderId(), PullResult.ExpiryRef.of(expiry));
        }

        static PulledKey of(PullResult result) {
            return new PulledKey(result.orderId(), result.expiry());
        }
    }
}
