package io.lapse.event;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.config.ConfigSource;
import io.lapse.config.TimerSettings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The event-time rules ingest and the compensator share. Ingest reads a record within milliseconds of its append; a
 * compensator that lags, restarts or replays reads it seconds or hours later: both must come to the same event time, or
 * the compensator's mirror disagrees with what Redis armed and its drift scan rewrites the order.
 */
class StatusReaderTest {

    private static final long APPENDED = 1_763_780_000_000L;
    private static final long SKEW = 5_000;
    private static final TimerSettings TIMER =
            TimerSettings.from(ConfigSource.defaults().with(Map.of("timer.max-clock-skew", SKEW + "ms")));

    private final List<StatusReader.Correction> corrections = new ArrayList<>();
    private final StatusReader reader = new StatusReader(TIMER, corrections::add);

    @Test
    void aTsFurtherAheadOfItsRecordThanTheSkewIsTheRecordsTimestampWhenEverItIsRead() {
        long ahead = APPENDED + SKEW + 10_000;

        long byIngest = pushRead(ahead, APPENDED);
        long byALaggingCompensator = pushRead(ahead, APPENDED + 8_000);
        long byAReplay = pushRead(ahead, APPENDED + 3_600_000);

        assertThat(List.of(byIngest, byALaggingCompensator, byAReplay)).containsOnly(APPENDED);
        assertThat(corrections).containsOnly(StatusReader.Correction.FUTURE).hasSize(3);
    }

    @Test
    void aTsWithinTheSkewOfItsRecordIsKeptWhenEverItIsRead() {
        long ahead = APPENDED + SKEW;

        assertThat(List.of(pushRead(ahead, APPENDED - 60_000), pushRead(ahead, APPENDED + 60_000)))
                .containsOnly(ahead);
        assertThat(corrections).isEmpty();
    }

    @Test
    void aNotFoundPullStampedAheadOfItsRecordIsTheRecordsTimestampWhenEverItIsRead() {
        TimerExpired expiry = new TimerExpired(
                "o1", APPENDED - 1_000, APPENDED - 91_000, 1, APPENDED - 1_000, TimerExpired.Source.TIMER, false);
        byte[] pull = JsonCodec.PULL_RESULT.encode(PullResult.notFound(expiry, APPENDED + 60_000));

        OrderUpdate byIngest = reader.pull(key(), pull, APPENDED, APPENDED);
        OrderUpdate byALaggingCompensator = reader.pull(key(), pull, APPENDED, APPENDED + 58_000);

        assertThat(byALaggingCompensator).isEqualTo(byIngest).isEqualTo(OrderUpdate.gone("o1", APPENDED));
    }

    private long pushRead(long ts, long readTime) {
        byte[] push = JsonCodec.STATUS_PUSH.encode(new StatusPush("o1", "CHARGING", ts));
        return reader.push(key(), push, APPENDED, readTime).eventTime();
    }

    private static byte[] key() {
        return "o1".getBytes(StandardCharsets.UTF_8);
    }
}
