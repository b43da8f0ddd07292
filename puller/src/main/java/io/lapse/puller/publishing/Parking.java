package io.lapse.puller.publishing;

import io.lapse.kafka.KafkaSend;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Parks an expiry whose pull must wait (upstream out, a request unanswered, a refusal of most orders, the puller
 * stopping): publishes its record again, key, value and headers, to the parked topic, with a {@link ParkedVisit} due
 * {@code upstream.circuit-open} from now, and sends again until Kafka acknowledges it. Once it has, the expiry is as
 * good as answered for its partition's commits: the committed offset moves past it, so that no pull holds a partition
 * back, and a restart neither reads again what was answered behind it nor waits for it. Every park waits as long, so
 * the parked topic's records come due in the order they were written and a partition of it is read in order.
 */
public final class Parking {

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Clock clock;
    private final Duration wait;
    private final BooleanSupplier running;

    /**
     * @param wait    how long a parked expiry waits before it is asked again
     * @param running false once the puller closes: then a send Kafka refuses is not sent again
     */
    public Parking(
            Producer<byte[], byte[]> producer, String topic, Clock clock, Duration wait, BooleanSupplier running) {
        this.producer = producer;
        this.topic = topic;
        this.clock = clock;
        this.wait = wait;
        this.running = running;
    }

    public String topic() {
        return topic;
    }

    /**
     * @param expiry  the expiry's record, from the expired topic or parked before
     * @param visits  times it was parked before
     * @param asked   requests upstream got for it so far
     * @param why     why it waits
     * @return completes once Kafka acknowledged the parked record
     */
    public CompletableFuture<Void> park(ConsumerRecord<byte[], byte[]> expiry, int visits, int asked, String why) {
        RecordHeaders headers = new RecordHeaders(expiry.headers().toArray());
        new ParkedVisit(visits + 1, asked, clock.millis() + wait.toMillis(), why).writeTo(headers);
        ProducerRecord<byte[], byte[]> parked =
                new ProducerRecord<>(topic, null, expiry.key(), expiry.value(), headers);
        return Redelivery.untilAcked(
                () -> KafkaSend.send(producer, parked).thenApply(meta -> null),
                "the parked expiry of " + expiry.topic() + "/" + expiry.partition() + "@" + expiry.offset(),
                running);
    }
}
