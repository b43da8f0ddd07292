package io.lapse.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.config.ConfigSource;
import io.lapse.config.TimerSettings;
import io.lapse.config.TopicNames;
import io.lapse.event.Decoded;
import io.lapse.event.OrderUpdate;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class RecordReaderTest {

    private static final long READ_TIME = 1_763_780_000_000L;
    private static final TopicNames TOPICS = TopicNames.defaults();

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RecordReader reader =
            new RecordReader(TOPICS, TimerSettings.from(ConfigSource.defaults()), new IngestMetrics(registry));

    private static ConsumerRecord<byte[], byte[]> record(String topic, String key, String value, long timestamp) {
        return new ConsumerRecord<>(
                topic,
                0,
                7,
                timestamp,
                TimestampType.CREATE_TIME,
                -1,
                -1,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8),
                new RecordHeaders(),
                Optional.empty());
    }

    private Decoded<OrderUpdate> push(String key, String json) {
        return reader.read(record(TOPICS.push(), key, json, READ_TIME - 50), READ_TIME);
    }

    private Decoded<OrderUpdate> pulled(String json) {
        return reader.read(record(TOPICS.pulled(), "1", json, READ_TIME - 50), READ_TIME);
    }

    @Test
    void aPushArmsItsOrderAtItsEventTime() {
        assertThat(push("1", "{\"orderId\":\"1\",\"status\":\"CHARGING\",\"ts\":" + (READ_TIME - 1000) + "}")
                        .value())
                .isEqualTo(OrderUpdate.active("1", READ_TIME - 1000));
    }

    @Test
    void aPushWithoutTsTakesTheRecordTimestamp() {
        assertThat(push(null, "{\"orderId\":\"1\",\"status\":\"CHARGING\"}").value())
                .isEqualTo(OrderUpdate.active("1", READ_TIME - 50));
    }

    @Test
    void aTsFurtherAheadOfItsRecordThanTheAllowedSkewIsClampedToTheRecordsTimestamp() {
        assertThat(push("1", "{\"orderId\":\"1\",\"status\":\"CHARGING\",\"ts\":" + (READ_TIME + 4_000) + "}")
                        .value()
                        .eventTime())
                .as("within 5 s of skew")
                .isEqualTo(READ_TIME + 4_000);
        assertThat(push("1", "{\"orderId\":\"1\",\"status\":\"CHARGING\",\"ts\":" + (READ_TIME + 60_000) + "}")
                        .value()
                        .eventTime())
                .as("the record's timestamp, whenever it is read: the compensator reading it later agrees")
                .isEqualTo(READ_TIME - 50);
        assertThat(corrected("future")).isEqualTo(1);
    }

    private double corrected(String rule) {
        return registry.get("lapse.ingest.event.time.corrected")
                .tag("rule", rule)
                .counter()
                .count();
    }

    @Test
    void aTsThatCannotBeAnEventTimeIsReplacedByTheRecordTimestampAndCounted() {
        long seconds = (READ_TIME - 1_000) / 1_000;
        assertThat(push("1", "{\"orderId\":\"1\",\"status\":\"CHARGING\",\"ts\":0}")
                        .value()
                        .eventTime())
                .isEqualTo(READ_TIME - 50);
        assertThat(push("1", "{\"orderId\":\"1\",\"status\":\"CHARGING\",\"ts\":" + seconds + "}")
                        .value()
                        .eventTime())
                .as("seconds instead of milliseconds")
                .isEqualTo(READ_TIME - 50);
        assertThat(corrected("past")).isEqualTo(2);
    }

    @Test
    void aLatePushKeepsItsTsWithinTheMaximumEventAge() {
        long hoursAgo = READ_TIME - 23 * 3_600_000L;
        assertThat(push("1", "{\"orderId\":\"1\",\"status\":\"CHARGING\",\"ts\":" + hoursAgo + "}")
                        .value()
                        .eventTime())
                .isEqualTo(hoursAgo);
        assertThat(corrected("past")).isZero();
    }

    @Test
    void aTerminalStatusEndsTheWatchWhateverItsCase() {
        assertThat(push("1", "{\"orderId\":\"1\",\"status\":\"finished\",\"ts\":" + READ_TIME + "}")
                        .value())
                .isEqualTo(OrderUpdate.terminal("1", READ_TIME));
    }

    @Test
    void badPushesAreRejectedWithTheirReason() {
        assertThat(push("1", "{oops").rejection()).startsWith("not valid JSON");
        assertThat(push("1", "{\"status\":\"CHARGING\"}").rejection()).isEqualTo("orderId is missing");
        assertThat(push("2", "{\"orderId\":\"1\",\"status\":\"CHARGING\"}").rejection())
                .isEqualTo("record key '2' differs from orderId '1'");
    }

    @Test
    void anOkPullArmsFromThePulledStatus() {
        String json = "{\"orderId\":\"1\",\"outcome\":\"OK\",\"status\":{\"orderId\":\"1\",\"status\":\"CHARGING\","
                + "\"ts\":" + (READ_TIME - 100) + "},\"pulledAt\":" + READ_TIME + ",\"expiry\":{\"deadline\":800,"
                + "\"attempt\":1}}";

        assertThat(pulled(json).value()).isEqualTo(OrderUpdate.active("1", READ_TIME - 100));
    }

    @Test
    void aNotFoundPullEndsTheWatchAsOfThePull() {
        assertThat(pulled("{\"orderId\":\"1\",\"outcome\":\"NOT_FOUND\",\"pulledAt\":1000}")
                        .value())
                .isEqualTo(OrderUpdate.gone("1", 1000));
    }

    @Test
    void failedAndSkippedPullsChangeNothingAndAreNotDeadLetters() {
        assertThat(pulled("{\"orderId\":\"1\",\"outcome\":\"FAILED\",\"pulledAt\":1000,\"error\":\"503\"}"))
                .isEqualTo(new Decoded<OrderUpdate>(null, null));
        assertThat(pulled("{\"orderId\":\"1\",\"outcome\":\"SKIPPED\",\"pulledAt\":1000}"))
                .isEqualTo(new Decoded<OrderUpdate>(null, null));
    }
}
