package io.lapse.store.watermarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.config.TopicNames;
import io.lapse.store.RedisConnectionExtension;
import io.lapse.store.TimerKeys;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class WatermarksTest {

    private static final long SLACK = 100;

    @RegisterExtension
    static final RedisConnectionExtension redis = new RedisConnectionExtension();

    private final Watermarks marks = new Watermarks(
            redis.connection(),
            new TimerKeys("wm-test", 16),
            new TopicNames("push", "expired", "pulled", "dlq", "shards", "fleet", "parked"),
            Duration.ofMillis(SLACK));

    @BeforeEach
    void forgetEverything() {
        redis.connection().async().flushall().toCompletableFuture().join();
    }

    private void report(Map<String, Long> partitionMarks, Map<String, Integer> partitions, long countedAt) {
        marks.report(new WatermarkReport(partitionMarks, partitions, countedAt, 50_000))
                .join();
    }

    @Test
    void theWatermarkIsTheLowestMarkOfEveryPartitionLessTheSlack() {
        report(Map.of("push/0", 1_000L, "push/1", 5_000L), Map.of("push", 2, "pulled", 1), 60_000);
        report(Map.of("pulled/0", 3_000L), Map.of(), 0);
        assertThat(marks.low().join()).hasValue(1_000L - SLACK);

        report(Map.of("push/0", 7_000L), Map.of(), 0);
        assertThat(marks.low().join()).hasValue(3_000L - SLACK);
    }

    @Test
    void nothingMayFireBeforeEveryPartitionOfBothTopicsHasReported() {
        assertThat(marks.low().join()).as("nothing reported").isEmpty();

        report(Map.of("push/0", 1_000L, "pulled/0", 1_000L), Map.of("push", 2, "pulled", 1), 60_000);
        assertThat(marks.low().join()).as("push/1 exists but has not reported").isEmpty();

        report(Map.of("push/1", 2_000L), Map.of(), 0);
        assertThat(marks.low().join()).hasValue(1_000L - SLACK);
    }

    @Test
    void aPartitionAddedToATopicHoldsTheWatermarkBackUntilItReports() {
        report(Map.of("push/0", 5_000L, "pulled/0", 5_000L), Map.of("push", 1, "pulled", 1), 60_000);
        assertThat(marks.low().join()).isPresent();

        report(Map.of(), Map.of("push", 2, "pulled", 1), 61_000);
        assertThat(marks.low().join()).isEmpty();
    }

    @Test
    void theWatermarkIsNeverLaterThanWhenThePartitionsWereCounted() {
        report(Map.of("push/0", 9_000L, "pulled/0", 9_000L), Map.of("push", 1, "pulled", 1), 4_000);

        assertThat(marks.low().join())
                .as("a partition added after 4000 may hold unread records")
                .hasValue(4_000L - SLACK);
    }

    @Test
    void aReportOfAPartitionThatNoLongerExistsOrOfAnotherTopicCountsForNothing() {
        report(
                Map.of("push/0", 5_000L, "push/1", 1_000L, "renamed/0", 10L, "pulled/0", 5_000L),
                Map.of("push", 2, "pulled", 1),
                60_000);
        assertThat(marks.low().join()).hasValue(1_000L - SLACK);

        // the topic was recreated with one partition: push/1 no longer exists
        report(Map.of(), Map.of("push", 1), 61_000);
        assertThat(marks.low().join()).hasValue(5_000L - SLACK);
        assertThat(marks.all().join()).as("left for on-call to forget").containsKeys("push/1", "renamed/0");
    }

    @Test
    void everyReportSaysWhenItWasMade() {
        marks.report(new WatermarkReport(Map.of("push/0", 1_000L), Map.of("push", 1), 900, 2_000))
                .join();

        assertThat(marks.all().join())
                .containsEntry("push/0", new WatermarkEntry(1_000, 2_000))
                .containsEntry("push/*", new WatermarkEntry(1, 900));
    }

    @Test
    void forgottenFieldsAreGone() {
        report(Map.of("push/0", 5_000L, "push/7", 1L), Map.of("push", 1, "pulled", 1), 60_000);

        marks.forget("push/7").join();

        assertThat(marks.all().join()).doesNotContainKey("push/7").containsKey("push/0");
    }
}
