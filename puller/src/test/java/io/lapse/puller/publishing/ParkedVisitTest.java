package io.lapse.puller.publishing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** How a parked expiry waits rides in headers beside its bytes, and reads back as written. */
class ParkedVisitTest {

    @Test
    void whatIsWrittenReadsBackAndReplacesWhatAnEarlierParkingWrote() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("lapse-copy-of", "charging.timer.expired/1@14".getBytes(StandardCharsets.UTF_8));
        new ParkedVisit(1, 2, 5_000, "upstream answered 503 (2 requests)").writeTo(headers);
        new ParkedVisit(2, 3, 9_000, "held while upstream is out").writeTo(headers);

        assertThat(ParkedVisit.of(headers)).isEqualTo(new ParkedVisit(2, 3, 9_000, "held while upstream is out"));
        assertThat(headers.headers("lapse-parked-visit")).hasSize(1);
        assertThat(headers.lastHeader("lapse-copy-of"))
                .as("the expiry's own headers stay")
                .isNotNull();
    }

    @Test
    void aRecordWithoutThemWasNeverParkedAndOneWithNonsenseIsDueAtOnce() {
        assertThat(ParkedVisit.of(new RecordHeaders())).isNull();

        RecordHeaders nonsense = new RecordHeaders();
        nonsense.add("lapse-parked-visit", "x".getBytes(StandardCharsets.UTF_8));
        nonsense.add("lapse-parked-due", "soon".getBytes(StandardCharsets.UTF_8));
        assertThat(ParkedVisit.of(nonsense)).isEqualTo(new ParkedVisit(1, 0, 0, ""));
    }
}
