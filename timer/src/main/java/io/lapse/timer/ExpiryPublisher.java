package io.lapse.timer;

import io.lapse.event.JsonCodec;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.KafkaSend;
import io.lapse.metrics.MetricNames;
import io.lapse.store.timers.Claim;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Publishes expiries to the expired topic and reports which of them Kafka acknowledged. */
final class ExpiryPublisher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ExpiryPublisher.class);
    private static final TimerExpired.Source[] SOURCES = TimerExpired.Source.values();

    /**
     * No lingering, since every millisecond is lateness; a failed send is known well before a default lease ends. No
     * compression: without lingering a storm's batches hold a hundred expiries or so, and LZ4 allocated two 64 KB
     * buffers for each batch, over a kilobyte per expiry, most of what the timer allocated (docs/benchmarks.md, "The
     * timer's CPU per expiry in isolation"); an expiry is 150 bytes, and the broker need not decompress to validate.
     */
    static final Map<String, Object> PRODUCER_SETTINGS = Map.of(
            ProducerConfig.COMPRESSION_TYPE_CONFIG,
            "none",
            ProducerConfig.LINGER_MS_CONFIG,
            0,
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
            10_000,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
            20_000);

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Clock clock;
    private final Timer lateness;
    private final Map<TimerExpired.Source, Counter> fired = new EnumMap<>(TimerExpired.Source.class);
    private final Counter failures;

    ExpiryPublisher(Producer<byte[], byte[]> producer, String topic, Clock clock, MeterRegistry registry) {
        this.producer = producer;
        this.topic = topic;
        this.clock = clock;
        this.lateness = Timer.builder(MetricNames.TIMER_FIRE_LATENESS)
                .description(
                        "From an expiry's deadline until Kafka acknowledged it with the rest of its shard's claims")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(5))
                .register(registry);
        for (TimerExpired.Source source : TimerExpired.Source.values()) {
            fired.put(
                    source,
                    Counter.builder(MetricNames.TIMER_EXPIRIES)
                            .tag("source", source.name().toLowerCase())
                            .description("Expiries published and acknowledged by Kafka")
                            .register(registry));
        }
        this.failures = Counter.builder("lapse.timer.publish.failures")
                .description("Expiries Kafka did not acknowledge; they fire again after the lease")
                .register(registry);
    }

    /**
     * Completes when every send has ended, with the claims Kafka acknowledged; never fails, because a claim Kafka
     * did not take fires again after its lease anyway.
     */
    CompletableFuture<List<Claim>> publish(List<Claim> claims) {
        // one small callback per record, and the bookkeeping (lateness, counts) once the batch is answered: in a storm
        // the producer's I/O thread, which runs the callbacks, was the half of the timer's CPU
        Answers answers = new Answers(claims);
        for (int i = 0; i < claims.size(); i++) {
            Claim claim = claims.get(i);
            TimerExpired expiry = claim.toEvent();
            ProducerRecord<byte[], byte[]> record =
                    new ProducerRecord<>(topic, expiry.recordKey(), JsonCodec.TIMER_EXPIRED.encode(expiry));
            KafkaSend.send(producer, record, answers.of(i));
        }
        return answers.all;
    }

    /** Gathers Kafka's answers to one publish; complete once every send has one. */
    private final class Answers {

        private final CompletableFuture<List<Claim>> all = new CompletableFuture<>();
        private final List<Claim> claims;
        private final boolean[] failed;
        private int pending;
        private boolean anyFailed;

        Answers(List<Claim> claims) {
            this.claims = claims;
            this.failed = new boolean[claims.size()];
            this.pending = claims.size();
            if (claims.isEmpty()) {
                all.complete(List.of());
            }
        }

        Callback of(int index) {
            return (meta, error) -> ended(index, error);
        }

        private void ended(int index, Exception error) {
            if (error != null) {
                Claim claim = claims.get(index);
                failures.increment();
                log.warn(
                        "expiry {} attempt {} not acknowledged by Kafka; it fires again after the lease: {}",
                        claim.orderId(),
                        claim.attempt(),
                        error.toString());
            }
            // the producer's I/O thread answers, except for a send that failed at once on the caller's
            synchronized (this) {
                if (error != null) {
                    failed[index] = true;
                    anyFailed = true;
                }
                if (--pending > 0) {
                    return;
                }
            }
            all.complete(acknowledged());
        }

        /** Once every send is answered: records their lateness and counts, and returns those Kafka took. */
        private List<Claim> acknowledged() {
            List<Claim> acked = anyFailed ? new ArrayList<>(claims.size()) : claims;
            long now = clock.millis();
            int[] bySource = new int[SOURCES.length];
            for (int i = 0; i < claims.size(); i++) {
                if (failed[i]) {
                    continue;
                }
                Claim claim = claims.get(i);
                lateness.record(Math.max(0, now - claim.deadline()), TimeUnit.MILLISECONDS);
                bySource[claim.source().ordinal()]++;
                if (anyFailed) {
                    acked.add(claim);
                }
            }
            for (TimerExpired.Source source : SOURCES) {
                if (bySource[source.ordinal()] > 0) {
                    fired.get(source).increment(bySource[source.ordinal()]);
                }
            }
            return acked;
        }
    }

    /** Closes the producer, which first finishes the sends in flight. */
    @Override
    public void close() {
        producer.close();
    }
}
