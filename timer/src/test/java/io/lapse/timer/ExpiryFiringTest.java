package io.lapse.timer;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.TimerExpired;
import io.lapse.store.timers.Claim;
import io.lapse.store.timers.ClaimBatch;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** A round's claims are acknowledged in Redis shard by shard, each shard's once Kafka answered for all of them. */
class ExpiryFiringTest {

    private static Claim claim(String orderId) {
        return new Claim(orderId, 1_000, 1, 91_000, TimerExpired.Source.TIMER, 91_002, false);
    }

    private static ClaimBatch batch(int shard, Claim... claims) {
        return new ClaimBatch(shard, 91_002, OptionalLong.empty(), List.of(claims));
    }

    @Test
    void eachShardAcknowledgesUnderItsOwnShardTheClaimsKafkaTookAndNoOther() {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        Map<Integer, List<Claim>> acknowledged = new ConcurrentHashMap<>();
        ExpiryFiring firing = new ExpiryFiring(
                new ExpiryPublisher(producer, "expired", Clock.systemUTC(), new SimpleMeterRegistry()),
                (shard, claims) -> {
                    acknowledged.put(shard, claims);
                    return CompletableFuture.completedFuture((long) claims.size());
                });

        firing.fire(List.of(batch(3, claim("a"), claim("b")), batch(5), batch(7, claim("c"))));
        producer.completeNext();
        producer.errorNext(new TimeoutException("delivery timeout"));
        assertThat(acknowledged).as("shard 7's send is unanswered yet").containsOnlyKeys(3);
        producer.completeNext();

        // MockProducer answers on the caller's thread, so the acknowledgements have been asked for by now
        assertThat(acknowledged).containsOnlyKeys(3, 7);
        assertThat(acknowledged.get(3)).containsExactly(claim("a"));
        assertThat(acknowledged.get(7)).containsExactly(claim("c"));
    }
}
