package io.lapse.ingest.fleet;

import io.lapse.config.FleetSettings;
import io.lapse.event.FleetEvent;
import io.lapse.event.FleetEvent.PartitionRate;
import io.lapse.event.JsonCodec;
import io.lapse.kafka.KafkaSend;
import io.lapse.store.FleetSilence;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a fleet silence from single orders going silent: reads the push topic's end offsets every
 * {@link FleetSettings#checkInterval()}, and when push partitions fall silent at once, says so once: one log line,
 * one SILENCE_STARTED event on {@code topics.fleet-events}, the silence kept in Redis (where the gauges and lapse
 * status read it); and once more when they speak again. Every ingest instance measures; the one holding the lease in
 * Redis decides. The event is published before Redis records the change, so a crash between the two repeats an
 * event rather than losing one.
 */
public final class FleetSilenceWatch {

    private static final Logger log = LoggerFactory.getLogger(FleetSilenceWatch.class);
    private static final long TIMEOUT_SECONDS = 10;
    // one partition, whatever the topic has, so that a silence's end is never read before its start
    private static final int EVENTS_PARTITION = 0;

    private final FleetSettings settings;
    private final String pushTopic;
    private final Supplier<CompletableFuture<Map<Integer, Long>>> pushEnds;
    private final FleetSilence silence;
    private final Supplier<CompletableFuture<Long>> watchedOrders;
    private final Producer<byte[], byte[]> producer;
    private final String eventsTopic;
    private final Clock clock;
    private final FleetGauges gauges;
    private final PushRates rates;
    private final String watcher = UUID.randomUUID().toString();
    /** When the first partitions were judged silent while no silence is on; 0 when none is. */
    private long silentSince;

    /**
     * @param pushEnds      the push topic's end offsets, by partition
     * @param watchedOrders how many orders the timer store watches, for the events' counts
     */
    public FleetSilenceWatch(
            FleetSettings settings,
            String pushTopic,
            Supplier<CompletableFuture<Map<Integer, Long>>> pushEnds,
            FleetSilence silence,
            Supplier<CompletableFuture<Long>> watchedOrders,
            Producer<byte[], byte[]> producer,
            String eventsTopic,
            Clock clock,
            FleetGauges gauges) {
        this.settings = settings;
        this.pushTopic = pushTopic;
        this.pushEnds = pushEnds;
        this.silence = silence;
        this.watchedOrders = watchedOrders;
        this.producer = producer;
        this.eventsTopic = eventsTopic;
        this.clock = clock;
        this.gauges = gauges;
        this.rates = new PushRates(settings.window(), settings.baseline());
    }

    /** One look at the push topic: measure, and decide when this instance holds the lease. */
    public void check() throws Exception {
        long at = clock.millis();
        Map<Integer, Long> ends = await(pushEnds.get());
        rates.read(at, ends);
        Optional<FleetEvent> on = await(silence.current());
        SilenceVerdict verdict = SilenceVerdict.of(rates, ends.keySet(), on, settings);
        if (await(silence.lead(watcher, lease()))) {
            on = decide(at, on, verdict);
        }
        gauges.show(on.isPresent(), verdict);
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
            publish(started);
            await(silence.declare(started));
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
            List<Integer> involved = current.partitionNumbers();
            FleetEvent ended = current.ended(
                    at,
                    verdict.judged().stream()
                            .filter(rate -> involved.contains(rate.partition()))
                            .toList(),
                    await(watchedOrders.get()),
                    verdict.silentShare());
            publish(ended);
            await(silence.end());
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
            await(silence.declare(grown));
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

    private void publish(FleetEvent event) throws Exception {
        await(KafkaSend.send(
                producer,
                new ProducerRecord<>(
                        eventsTopic,
                        EVENTS_PARTITION,
                        pushTopic.getBytes(StandardCharsets.UTF_8),
                        JsonCodec.FLEET_EVENT.encode(event))));
    }

    /** Long enough to outlast a check that is slow, short enough that a crashed judge is replaced within seconds. */
    private Duration lease() {
        return settings.checkInterval().multipliedBy(3).plusSeconds(TIMEOUT_SECONDS);
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private static double sum(List<PartitionRate> rates, ToDoubleFunction<PartitionRate> rate) {
        return rates.stream().mapToDouble(rate).sum();
    }

    private static long rounded(double value) {
        return Math.round(value);
    }
}
