package io.lapse.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lapse.event.DeadLetter;
import io.lapse.event.JsonCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.CompletionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** Every way a send can fail reaches the caller as a failed future, never as an exception thrown by the send. */
class KafkaSendTest {

    private static MockProducer<byte[], byte[]> producer() {
        return new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Test
    void anAcknowledgedSendCompletesWithItsOffset() {
        MockProducer<byte[], byte[]> producer = producer();

        assertThat(KafkaSend.send(producer, new ProducerRecord<>("t", new byte[] {1}))
                        .join()
                        .hasOffset())
                .isTrue();
    }

    @Test
    void aSendThatThrowsAtOnceFailsTheFutureInstead() {
        MockProducer<byte[], byte[]> producer = producer();
        producer.sendException = new TimeoutException("no metadata within max.block.ms");

        assertThatThrownBy(() -> KafkaSend.send(producer, new ProducerRecord<>("t", new byte[] {1}))
                        .join())
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(TimeoutException.class);
    }

    @Test
    void aDeadLetterThatCannotBeSentAtOnceFailsItsFutureInsteadOfEscapingTheSink() {
        MockProducer<byte[], byte[]> producer = producer();
        producer.sendException = new TimeoutException("no metadata within max.block.ms");
        DeadLetterSink sink = new DeadLetterSink(producer, "dlq", Clock.systemUTC(), new SimpleMeterRegistry(), "test");
        ConsumerRecord<byte[], byte[]> bad = new ConsumerRecord<>(
                "push", 0, 42, "k".getBytes(StandardCharsets.UTF_8), "not json".getBytes(StandardCharsets.UTF_8));

        assertThat(sink.send(bad, "not JSON")).isCompletedExceptionally();
    }

    @Test
    void aDeadLetterCarriesTheReasonAndWhereTheRecordCameFrom() {
        MockProducer<byte[], byte[]> producer = producer();
        DeadLetterSink sink = new DeadLetterSink(producer, "dlq", Clock.systemUTC(), new SimpleMeterRegistry(), "test");
        ConsumerRecord<byte[], byte[]> bad = new ConsumerRecord<>(
                "push", 3, 42, "k".getBytes(StandardCharsets.UTF_8), "not json".getBytes(StandardCharsets.UTF_8));

        sink.send(bad, "not JSON").join();

        DeadLetter letter =
                JsonCodec.DEAD_LETTER.decode(producer.history().get(0).value());
        assertThat(letter.reason()).isEqualTo("not JSON");
        assertThat(letter.sourceTopic()).isEqualTo("push");
        assertThat(letter.offset()).isEqualTo(42);
    }
}
