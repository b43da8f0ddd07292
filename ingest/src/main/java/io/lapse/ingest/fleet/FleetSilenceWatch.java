package io.lapse.ingest.fleet;

import io.lapse.config.FleetSettings;
import io.lapse.event.FleetEvent;
import io.lapse.event.FleetEvent.PartitionRate;
import io.lapse.kafka.KafkaClients;
import io.lapse.store.fleet.FleetSilence;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a fleet silence from single orders going silent: reads the push topic's end offsets every
 * {@link FleetSettings#checkInterval()}, and when push partitions fall silent at once, says so once: one log line,
 * one SILENCE_STARTED event on {@code topics.fleet-events}, the silence kept in Redis (where the gauges and lapse
 * status read it); and once more when they speak again. Every ingest instance measures; the one holding the lease in
 * Redis judges ({@link FleetJudge}). What the events topic says is the truth: a judge that takes over reads the
 * silence on from it and fences the judges before, and Redis only shows a copy, which the judge writes again when
 * Redis lost it. A check that took half a window or longer (a frozen or starved process) decides nothing: its rates
 * are old.
 */
public final class FleetSilenceWatch {

    private static final Logger log = LoggerFactory.getLogger(FleetSilenceWatch.class);

    private final FleetSettings settings;
    private final SilenceRule rule;
    private final String pushTopic;
    private final Supplier<CompletableFuture<Map<Integer, Long>>> pushEnds;
    private final FleetSilence silence;
    private final Supplier<CompletableFuture<Long>> watchedOrders;
    private final FleetEventLog events;
    private final String eventsTopic;
    private final Clock clock;
    private final FleetGauges gauges;
    private final CohortSilenceWatch cohorts;
    private final PushRates rates;
    private final String watcher = UUID.randomUUID().toString();
    /** While this instance judges; null otherwise. */
    private FleetJudge judge;
    /** When the first partitions were judged silent while no silence is on; 0 when none is. */
    private long silentSince;

    /**
     * @param pushEnds        the push topic's end offsets, by partition
     * @param watchedOrders   how many orders the timer store watches, for the events' counts
     * @param transactionalId the fleet judge's, the same for every ingest instance of the deployment
     * @param cohorts         tells cohort silences at each check, judged by the same instance
     */
    public FleetSilenceWatch(
            FleetSettings settings,
            String pushTopic,
            Supplier<CompletableFuture<Map<Integer, Long>>> pushEnds,
            FleetSilence silence,
            Supplier<CompletableFuture<Long>> watchedOrders,
            KafkaClients clients,
            String eventsTopic,
            String transactionalId,
            Clock clock,
            FleetGauges gauges,
            CohortSilenceWatch cohorts) {
        this.settings = settings;
        this.rule = SilenceRule.of(settings);
        this.pushTopic = pushTopic;
        this.pushEnds = pushEnds;
        this.silence = silence;
        this.watchedOrders = watchedOrders;
        this.events = new FleetEventLog(clients, eventsTopic, pushTopic, transactionalId);
        this.eventsTopic = eventsTopic;
        this.clock = clock;
        this.gauges = gauges;
        this.cohorts = cohorts;
        this.rates = new PushRates(settings.window(), settings.baseline());
    }

    /** One look at the push topic: measure, and decide when this instance holds the lease. */
    public void check() throws Exception {
        long at = clock.millis();
        // first: a broker that does not answer must not hold back counting the cohorts
        cohorts.measure(at);
        Map<Integer, Long> ends = await(pushEnds.get());
        rates.read(at, ends);
        Optional<FleetEvent> recorded = await(silence.current());
        if (!await(silence.lead(watcher, settings.judgeLease()))) {
            stepDown();
            gauges.show(
                    recorded.isPresent(),
                    SilenceVerdict.of(rates, ends.keySet(), recorded, rule, SilenceVerdict.Quietest.NOW));
            cohorts.show();
            return;
        }
        if (judge == null) {
            judge = FleetJudge.takeOver(events, recorded);
            log.info(
                    "this ingest instance judges fleet silence now; silence on: {}",
                    judge.on().isPresent());
        }
        Optional<FleetEvent> on = judge.on();
        SilenceVerdict verdict = SilenceVerdict.of(rates, ends.keySet(), on, rule, judge::quietest);
        try {
            on = decide(at, on, verdict);
        } catch (FleetJudge.FencedOut e) {
            log.info("{}; this instance stops judging", e.getMessage());
            stepDown();
            return;
        } catch (Exception e) {
            // the next check takes over again with a new writer, which reads again what the topic holds
            stepDown();
            throw e;
        }
        if (!on.equals(recorded)) {
            // Redis lost its copy (a flush, a restart), or it is the change just published
            if (on.isPresent()) {
                await(silence.declare(on.get()));
            } else {
                await(silence.end());
            }
        }
        gauges.show(on.isPresent(), verdict);
        judgeCohorts(at);
    }

    /** With the same writer and term as the fleet's silence, which a cohort's fencing ends alike. */
    private void judgeCohorts(long at) throws Exception {
        try {
            cohorts.judge(at, judge);
        } catch (FleetJudge.FencedOut e) {
            log.info("{}; this instance stops judging", e.getMessage());
            stepDown();
        } catch (Exception e) {
            stepDown();
            throw e;
        }
    }

    /**
     * Whether the check that began at {@code at} took longer than half a window (the time a start waits for partitions
     * that stopped together): the process froze or starved, its rates are old and it decides nothing (the next check
     * decides with fresh ones).
     */
    private boolean stale(long at) {
        long took = clock.millis() - at;
        if (took <= settings.window().toMillis() / 2) {
            return false;
        }
        log.info(
                "a fleet silence check took {} ms, half a window or more: its rates are old; it decides nothing", took);
        return true;
    }

    /** Ends this instance's term as judge, if it had one. */
    private void stepDown() {
        if (judge != null) {
            judge.close();
            judge = null;
        }
        cohorts.stepDown();
    }

    /** Ends the term of judge, if this instance has one; the lease runs out by itself. */
    public void close() {
        stepDown();
    }

    private Optional<FleetEvent> decide(long at, Optional<FleetEvent> on, SilenceVerdict verdict) throws Exception {
        if (on.isEmpty()) {
            if (verdict.silent().isEmpty()) {
                silentSince = 0;
                return on;
            }
            if (silentSince == 0) {
                silentSince = at;
            }
            // partitions that stopped together cross the threshold a check or two apart, as their windows empty:
            // waiting half a window lets one event name them all
            if (at - silentSince < settings.window().toMillis() / 2) {
                return on;
            }
            if (stale(at)) {
                return on;
            }
            long noticed = silentSince;
            silentSince = 0;
            FleetEvent started = new FleetEvent(
                    FleetEvent.Kind.SILENCE_STARTED,
                    at,
                    noticed,
                    pushTopic,
                    verdict.silent(),
                    await(watchedOrders.get()),
                    verdict.silentShare());
            judge.publish(started);
            log.warn(
                    "fleet silence: push partitions {} of {} went silent at once ({} pushes/s, {} before; {} % of the "
                            + "topic's pushes missing; {} orders watched). Producers stopped writing, ingest did not "
                            + "stop reading: expiries fire and each order is pulled. Event on {}; lapse status shows it",
                    started.partitionNumbers(),
                    pushTopic,
                    rounded(sum(started.partitions(), PartitionRate::pushesPerSecond)),
                    rounded(sum(started.partitions(), PartitionRate::baselinePushesPerSecond)),
                    Math.round(verdict.silentShare() * 100),
                    started.watchedOrders(),
                    eventsTopic);
            return Optional.of(started);
        }
        FleetEvent current = on.get();
        if (verdict.endsSilence()) {
            if (stale(at)) {
                return on;
            }
            List<Integer> involved = current.partitionNumbers();
            FleetEvent ended = current.ended(
                    at,
                    verdict.judged().stream()
                            .filter(rate -> involved.contains(rate.partition()))
                            .toList(),
                    await(watchedOrders.get()),
                    verdict.silentShare());
            judge.publish(ended);
            log.info(
                    "fleet silence over: push partitions {} of {} speak again after {} s",
                    involved,
                    pushTopic,
                    (at - current.since()) / 1000);
            return Optional.empty();
        }
        List<PartitionRate> joined = verdict.joining(current);
        if (joined.size() > current.partitions().size()) {
            FleetEvent grown = new FleetEvent(
                    current.event(),
                    current.at(),
                    current.since(),
                    pushTopic,
                    joined,
                    current.watchedOrders(),
                    Math.max(current.silentShare(), verdict.silentShare()));
            judge.grew(grown);
            log.warn(
                    "fleet silence: push partitions {} went silent too; silent now: {}",
                    verdict.silent().stream()
                            .map(PartitionRate::partition)
                            .filter(p -> !current.partitionNumbers().contains(p))
                            .collect(Collectors.toList()),
                    grown.partitionNumbers());
            return Optional.of(grown);
        }
        return on;
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(FleetSettings.CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static double sum(List<PartitionRate> rates, ToDoubleFunction<PartitionRate> rate) {
        return rates.stream().mapToDouble(rate).sum();
    }

    private static long rounded(double value) {
        return Math.round(value);
    }
}
