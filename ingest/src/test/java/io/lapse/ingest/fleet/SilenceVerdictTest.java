package io.lapse.ingest.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.config.ConfigSource;
import io.lapse.config.FleetSettings;
import io.lapse.event.FleetEvent;
import io.lapse.event.FleetEvent.PartitionRate;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class SilenceVerdictTest {

    private static final FleetSettings SETTINGS = FleetSettings.from(ConfigSource.defaults()); // 30 s over 10 min, 50 %
    private static final long SECOND = 1_000;

    private final PushRates rates = new PushRates(SETTINGS.window(), SETTINGS.baseline());
    private final Map<Integer, Long> ends = new HashMap<>();
    /** As the judge keeps it: the quietest each partition of the silence on was, from the rate it started with. */
    private final Map<Integer, Double> quietest = new HashMap<>();

    private long now = 1_700_000_000_000L;

    /** Each partition's producers write this many pushes a second for the given time, read every 5 s. */
    private void write(Duration time, Map<Integer, Integer> perSecond) {
        for (long t = 0; t < time.toMillis(); t += 5 * SECOND) {
            now += 5 * SECOND;
            perSecond.forEach((partition, rate) -> ends.merge(partition, rate * 5L, Long::sum));
            rates.read(now, Map.copyOf(ends));
        }
    }

    private SilenceVerdict verdict(Optional<FleetEvent> on) {
        on.ifPresent(event -> event.partitions()
                .forEach(rate -> quietest.merge(rate.partition(), rate.pushesPerSecond(), Math::min)));
        return SilenceVerdict.of(
                rates,
                ends.keySet(),
                on,
                SilenceRule.of(SETTINGS),
                (partition, rate) -> quietest.merge(partition, rate, Math::min));
    }

    @Test
    void partitionsThatStopTogetherAreSilentAndTheShareSaysHowMuchIsMissing() {
        write(Duration.ofMinutes(5), Map.of(0, 100, 1, 100, 2, 100, 3, 100));

        write(Duration.ofSeconds(40), Map.of(0, 0, 1, 0, 2, 100, 3, 100));

        SilenceVerdict verdict = verdict(Optional.empty());
        assertThat(verdict.silent()).extracting(PartitionRate::partition).containsExactly(0, 1);
        // the baseline takes in the first seconds of the silence, read before the window began
        assertThat(verdict.silentShare()).isCloseTo(0.5, Offset.offset(0.02));
    }

    @Test
    void partitionsAddedToThePushTopicMoveKeysWithoutSilencingAnyPartition() {
        write(Duration.ofMinutes(5), everyPartition(6, 100));

        // librdkafka's producers: CRC-32 modulo 12 instead of 6 sends about half of each partition's keys to a new one
        Map<Integer, Integer> moved = new HashMap<>();
        for (int partition = 0; partition < 12; partition++) {
            moved.put(partition, partition < 6 ? 45 : 55);
        }
        write(Duration.ofSeconds(40), moved);

        assertThat(verdict(Optional.empty()).silent()).isEmpty();
    }

    @Test
    void onceTheProducersHaveMovedTheirKeysARealSilenceIsToldAgain() {
        write(Duration.ofMinutes(5), everyPartition(6, 100));
        write(PushRates.KEYS_MOVE_WITHIN.plusMinutes(1), everyPartition(12, 50));

        Map<Integer, Integer> twoStopped = everyPartition(12, 50);
        twoStopped.put(0, 0);
        twoStopped.put(1, 0);
        write(Duration.ofSeconds(40), twoStopped);

        assertThat(verdict(Optional.empty()).silent())
                .extracting(PartitionRate::partition)
                .containsExactly(0, 1);
    }

    private static Map<Integer, Integer> everyPartition(int partitions, int perSecond) {
        Map<Integer, Integer> rates = new HashMap<>();
        for (int partition = 0; partition < partitions; partition++) {
            rates.put(partition, perSecond);
        }
        return rates;
    }

    @Test
    void aRateThatFallsByMoreThanHalfIsSilenceAndOneThatFallsByAThirdIsNot() {
        write(Duration.ofMinutes(5), Map.of(0, 90, 1, 90));

        write(Duration.ofSeconds(40), Map.of(0, 40, 1, 60));

        assertThat(verdict(Optional.empty()).silent())
                .extracting(PartitionRate::partition)
                .containsExactly(0);
    }

    @Test
    void nothingIsJudgedBeforeTheReadingsSpanAWindowAndABaselineOfOne() {
        write(Duration.ofSeconds(20), Map.of(0, 100));
        write(Duration.ofSeconds(30), Map.of(0, 0));

        assertThat(verdict(Optional.empty()).judged()).isEmpty();
    }

    @Test
    void aPartitionTooQuietToJudgeNeverCountsAsSilent() {
        write(Duration.ofMinutes(5), Map.of(0, 100, 1, 0));
        write(Duration.ofSeconds(40), Map.of(0, 100, 1, 0));

        SilenceVerdict verdict = verdict(Optional.empty());
        assertThat(verdict.silent()).isEmpty();
        assertThat(verdict.judged()).extracting(PartitionRate::partition).containsExactly(0);
    }

    @Test
    void aSilenceOnIsJudgedAgainstTheRateBeforeItEvenOnceTheBaselineHasSunk() {
        write(Duration.ofMinutes(5), Map.of(0, 100));
        write(Duration.ofMinutes(15), Map.of(0, 0));
        FleetEvent on = new FleetEvent(
                FleetEvent.Kind.SILENCE_STARTED, now, now, "push", List.of(new PartitionRate(0, 0, 100)), 1_500, 1);

        assertThat(verdict(Optional.empty()).silent())
                .as("its own baseline is silence by now")
                .isEmpty();
        assertThat(verdict(Optional.of(on)).silent())
                .extracting(PartitionRate::partition)
                .containsExactly(0);

        write(Duration.ofSeconds(40), Map.of(0, 95));
        assertThat(verdict(Optional.of(on)).endsSilence()).isTrue();
    }

    @Test
    void aFleetThatComesBackSmallerThanBeforeEndsTheSilence() {
        write(Duration.ofMinutes(10), Map.of(0, 100, 1, 100));
        write(Duration.ofMinutes(15), Map.of(0, 0, 1, 0));
        FleetEvent on = new FleetEvent(
                FleetEvent.Kind.SILENCE_STARTED,
                now,
                now,
                "push",
                List.of(new PartitionRate(0, 10, 100), new PartitionRate(1, 10, 100)),
                1_500,
                1);
        assertThat(verdict(Optional.of(on)).endsSilence()).isFalse();

        // sessions ended while it was silent: the fleet is back at 30 % of what it was
        write(Duration.ofSeconds(40), Map.of(0, 30, 1, 30));

        assertThat(verdict(Optional.of(on)).endsSilence()).isTrue();
    }

    @Test
    void aTrickleAfterATotalSilenceDoesNotEndIt() {
        write(Duration.ofMinutes(10), Map.of(0, 1_000));
        write(Duration.ofMinutes(2), Map.of(0, 0));
        FleetEvent on = new FleetEvent(
                FleetEvent.Kind.SILENCE_STARTED, now, now, "push", List.of(new PartitionRate(0, 0, 1_000)), 1_500, 1);
        assertThat(verdict(Optional.of(on)).endsSilence()).isFalse();

        write(Duration.ofSeconds(40), Map.of(0, 5));
        assertThat(verdict(Optional.of(on)).endsSilence())
                .as("5 of 1,000 a second: a few chargers, not the fleet")
                .isFalse();

        write(Duration.ofSeconds(40), Map.of(0, 40));
        assertThat(verdict(Optional.of(on)).endsSilence()).isTrue();
    }

    @Test
    void aPartOfTheFleetThatKeptPushingThroughTheSilenceDoesNotEndIt() {
        write(Duration.ofMinutes(10), Map.of(0, 100));
        write(Duration.ofMinutes(2), Map.of(0, 30));
        FleetEvent on = new FleetEvent(
                FleetEvent.Kind.SILENCE_STARTED, now, now, "push", List.of(new PartitionRate(0, 30, 100)), 1_500, 0.7);
        assertThat(verdict(Optional.of(on)).endsSilence()).isFalse();

        write(Duration.ofSeconds(40), Map.of(0, 40));
        assertThat(verdict(Optional.of(on)).endsSilence())
                .as("40 is hardly more than the 30 that kept pushing")
                .isFalse();

        write(Duration.ofSeconds(40), Map.of(0, 65));
        assertThat(verdict(Optional.of(on)).endsSilence())
                .as("back above half its baseline")
                .isTrue();
    }

    @Test
    void aJudgeThatJustTookOverDoesNotEndASilenceItHasNotMeasuredYet() {
        FleetEvent on = new FleetEvent(
                FleetEvent.Kind.SILENCE_STARTED, now, now, "push", List.of(new PartitionRate(0, 0, 100)), 1_500, 1);
        write(Duration.ofSeconds(10), Map.of(0, 100));

        SilenceVerdict verdict = verdict(Optional.of(on));

        assertThat(verdict.unjudged()).containsExactly(0);
        assertThat(verdict.endsSilence()).isFalse();
    }

    @Test
    void ratesComeFromTheBrokersEndOffsetsSoATopicCreatedAnewCountsAsNoPushesNotNegativeOnes() {
        write(Duration.ofMinutes(2), Map.of(0, 100));
        ends.put(0, 0L);
        rates.read(now += 5 * SECOND, Map.copyOf(ends));

        assertThat(rates.now(0)).hasValue(0.0);
    }
}
