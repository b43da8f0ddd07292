package io.lapse.timer;

import io.lapse.event.JsonCodec;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.KafkaSend;
import io.lapse.metrics.MetricNames;
import io.lapse.store.Claim;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Publishes expiries to the expired topic and reports which of them Kafka acknowledged. */
final class ExpiryPublisher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ExpiryPublisher.class);

    /** No lingering, since every millisecond is lateness; a failed send is known well before a default lease ends. */
    static final Map<String, Object> PRODUCER_SETTINGS = Map.of(
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
                .description("From an expiry's deadline until Kafka acknowledged its event")
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
        // a callback per record, not two futures per record joined by allOf: in a storm, completing those futures was
        // most of what the producer's I/O thread, a third of the timer's CPU samples, did
        Answers answers = new Answers(claims.size());
        for (Claim claim : claims) {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                    topic,
                    claim.orderId().getBytes(StandardCharsets.UTF_8),
                    JsonCodec.TIMER_EXPIRED.encode(claim.toEvent()));
            KafkaSend.send(producer, record, (meta, error) -> {
                if (error == null) {
                    lateness.record(Math.max(0, clock.millis() - claim.deadline()), TimeUnit.MILLISECONDS);
                    fired.get(claim.source()).increment();
                } else {
                    failures.increment();
                    log.warn(
                            "expiry {} attempt {} not acknowledged by Kafka; it fires again after the lease: {}",
                            claim.orderId(),
                            claim.attempt(),
                            error.toString());
                }
                answers.ended(claim, error == null);
            });
        }
        return answers.all;
    }

    /** Gathers Kafka's answers to one publish; complete once every send has one. */
    private static final class Answers {

        private final CompletableFuture<List<Claim>> all = new CompletableFuture<>();
        private final List<Claim> acked;
        private int pending;

        Answers(int sends) {
            this.acked = new ArrayList<>(sends);
            this.pending = sends;
            if (sends == 0) {
                all.complete(List.of());
            }
        }

        void ended(Claim claim, boolean acknowledged) {
            List<Claim> result;
            // the producer's I/O thread answers, except for a send that failed at once on the caller's
            synchronized (this) {
                if (acknowledged) {
                    acked.add(claim);
                }
                if (--pending > 0) {
                    return;
                }
                result = List.copyOf(acked);
            }
            all.complete(result);
        }
    }

    /** Closes the producer, which first finishes the sends in flight. */
    @Override
    public void close() {
        producer.close();
    }
}
