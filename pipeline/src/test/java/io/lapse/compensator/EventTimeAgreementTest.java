package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.DevStack;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ingest reads a push as it arrives; the compensator may read it much later (it was down, restarting, behind). A push
 * whose ts runs ahead of its record (a device clock, a producer that stamps ts itself) must get the same event time
 * from both, or the compensator's mirror holds a newer status than Redis: its drift scan "repairs" the order once the
 * mirror's later deadline has passed, and it fires again, attempt 1 labelled compensator, a second cycle of expiries
 * for a silence the timer already fired. Ingest, timer, puller and compensator against a real Kafka, Redis and HTTP
 * upstream.
 */
@ExtendWith(SharedStack.class)
@Tag("slow")
class EventTimeAgreementTest {

    private static final Duration TTL = Duration.ofSeconds(20);
    private static final Duration SKEW = Duration.ofSeconds(1);
    /** How far the push's ts runs ahead of its record: beyond the skew, so ingest takes the record's time. */
    private static final Duration AHEAD = Duration.ofSeconds(6);

    @TempDir
    Path stateDir;

    @Test
    void aPushStampedAheadOfItsRecordFiresOnceForTheDeadlineIngestArmedWhenTheCompensatorReadsItLate(DevStack stack)
            throws Exception {
        try (FleetUpstream upstream = FleetUpstream.start();
                RunningLapse lapse = new RunningLapse(
                        stack.bootstrapServers(),
                        stack.redisUri(),
                        Map.of(
                                "timer.ttl",
                                TTL.toSeconds() + "s",
                                "timer.repeat",
                                "5m",
                                "timer.max-clock-skew",
                                SKEW.toMillis() + "ms",
                                "upstream.base-url",
                                upstream.baseUrl(),
                                "compensator.scan-interval",
                                "1s"))) {
            lapse.startPipeline();
            CompensatorService first = lapse.startCompensator(stateDir);
            await().atMost(Duration.ofSeconds(60)).until(lapse::hasEveryEpoch);
            first.close(); // the compensator is away while the push arrives, and reads it when it is back

            String order = "ahead-1";
            long appended = System.currentTimeMillis();
            StatusPush push = new StatusPush(order, "CHARGING", appended + AHEAD.toMillis());
            // a pull of the silent order answers no newer status than Lapse armed it from, so it re-arms nothing
            upstream.pushed(new StatusPush(order, "CHARGING", appended));
            lapse.producer()
                    .send(new ProducerRecord<>(
                            lapse.config.topics().push(),
                            null,
                            appended,
                            order.getBytes(StandardCharsets.UTF_8),
                            JsonCodec.STATUS_PUSH.encode(push)))
                    .get();
            await().atMost(Duration.ofSeconds(30)).until(() -> lapse.watermark() > appended);
            // by now the push's ts is no longer ahead of the clock of whoever reads it
            await().atMost(AHEAD.plusSeconds(1)).until(() -> System.currentTimeMillis() > appended + AHEAD.toMillis());
            lapse.startCompensator(stateDir);

            await().atMost(TTL.plusSeconds(30))
                    .until(() ->
                            lapse.expiries().stream().anyMatch(e -> e.orderId().equals(order)));
            // a drift scan after the deadline the push's unclamped ts would give, and the timer's next rounds
            long unclamped = appended + AHEAD.toMillis() + TTL.toMillis();
            await().atMost(Duration.ofSeconds(60)).until(() -> lastDriftScanMillis(lapse) > unclamped + 1_000);
            long scanned = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(10)).until(() -> System.currentTimeMillis() > scanned + 3_000);
            List<TimerExpired> fired = lapse.expiries().stream()
                    .filter(e -> e.orderId().equals(order) && e.attempt() == 1)
                    .toList();
            assertThat(fired)
                    .as("its first expiry fired once, by the timer, for the deadline ingest armed from the clamped ts")
                    .singleElement()
                    .satisfies(expiry -> {
                        assertThat(expiry.source()).isEqualTo(TimerExpired.Source.TIMER);
                        assertThat(expiry.lastSeen()).isBetween(appended, appended + AHEAD.toMillis() - 1);
                        assertThat(expiry.deadline()).isEqualTo(expiry.lastSeen() + TTL.toMillis());
                        assertThat(expiry.attempt()).isEqualTo(1);
                    });
        }
    }

    /** When the compensator last finished a drift scan, from its metrics; 0 before the first. */
    private static long lastDriftScanMillis(RunningLapse lapse) {
        return lapse
                .compensatorMetrics()
                .find(io.lapse.metrics.MetricNames.COMPENSATOR_SCAN_LAST)
                .tag("scan", "drift")
                .gauges()
                .stream()
                .mapToDouble(gauge -> gauge.value())
                .filter(seconds -> !Double.isNaN(seconds))
                .mapToLong(seconds -> (long) (seconds * 1000))
                .max()
                .orElse(0);
    }
}
