package io.lapse.timer;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.TimerExpired;
import io.lapse.metrics.MetricNames;
import io.lapse.store.timers.Claim;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** What publishing reports back to the timer, which acknowledges in Redis exactly the claims it names. */
class ExpiryPublisherTest {

    private static final List<Claim> CLAIMS = List.of(
            new Claim("o1", 1_000, 1, 91_000, TimerExpired.Source.TIMER, 91_002, false),
            new Claim("o2", 2_000, 1, 92_000, TimerExpired.Source.TIMER, 92_001, false));

    private static ExpiryPublisher publisherOn(MockProducer<byte[], byte[]> producer) {
        return new ExpiryPublisher(producer, "expired", Clock.systemUTC(), new SimpleMeterRegistry());
    }

    @Test
    void theClaimsKafkaAcknowledgedAreReported() {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());

        assertThat(publisherOn(producer).publish(CLAIMS).join()).containsExactlyInAnyOrderElementsOf(CLAIMS);
        assertThat(producer.history()).hasSize(2);
    }

    @Test
    void theRoundEndsOnlyOnceKafkaAnsweredEverySendAndLeavesOutTheOnesItRefused() {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        CompletableFuture<List<Claim>> acked = publisherOn(producer).publish(CLAIMS);

        producer.completeNext();
        assertThat(acked).as("one send still unanswered").isNotDone();
        producer.errorNext(new TimeoutException("delivery timeout"));

        assertThat(acked.join()).containsExactly(CLAIMS.get(0));
    }

    @Test
    void onlyWhatKafkaAcknowledgedCountsAsFiredAndInTheLateness() {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CompletableFuture<List<Claim>> acked =
                new ExpiryPublisher(producer, "expired", Clock.systemUTC(), registry).publish(CLAIMS);

        producer.errorNext(new TimeoutException("delivery timeout"));
        producer.completeNext();
        acked.join();

        assertThat(registry.get(MetricNames.TIMER_EXPIRIES)
                        .tag("source", "timer")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(MetricNames.TIMER_FIRE_LATENESS).timer().count())
                .isEqualTo(1);
        assertThat(registry.get("lapse.timer.publish.failures").counter().count())
                .isEqualTo(1);
    }

    @Test
    void aRoundOfNoClaimsEndsAtOnce() {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());

        assertThat(publisherOn(producer).publish(List.of()).join()).isEmpty();
    }

    @Test
    void aSendThatFailsAtOnceIsReportedAsNotAcknowledgedInsteadOfFailingTheRound() {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        producer.sendException = new TimeoutException("no metadata within max.block.ms");

        assertThat(publisherOn(producer).publish(CLAIMS).join()).isEmpty();
    }
}
