package io.lapse.operations.watermarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.operations.Lapse;
import io.lapse.operations.OnCallRig;
import io.lapse.operations.RigPerClass;
import io.lapse.store.watermarks.WatermarkReport;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** lapse watermarks lists ingest's marks against the topics' metadata and forgets only partitions that are gone. */
@ExtendWith(RigPerClass.class)
@Tag("slow")
class WatermarksCommandTest {

    private static OnCallRig rig;
    private static String push;

    @BeforeAll
    static void start(OnCallRig given) {
        rig = given;
        push = rig.config.topics().push();
    }

    private static void reportEveryPartitionAnd(String... gone) {
        long now = System.currentTimeMillis();
        Map<String, Long> marks = new HashMap<>();
        for (int p = 0; p < 3; p++) {
            marks.put(push + "/" + p, now - 1_000);
            marks.put(rig.config.topics().pulled() + "/" + p, now - 2_000);
        }
        for (String partition : gone) {
            marks.put(partition, now - 86_400_000);
        }
        rig.watermarks.report(new WatermarkReport(marks, Map.of(), now, now)).join();
    }

    @Test
    void marksOfPartitionsThatNoLongerExistAreAProblemUntilForgotten() {
        reportEveryPartitionAnd(push + "/7", "renamed.topic/0");

        Lapse.Outcome listed = rig.lapse("watermarks");

        assertThat(listed.exit()).isEqualTo(1);
        assertThat(listed.out())
                .contains(
                        push + "/0",
                        "renamed.topic/0",
                        "no longer exists: lapse watermarks forget " + push + "/7",
                        "watermark: 20",
                        "1 d old), from ");

        Lapse.Outcome forgot = rig.lapse("watermarks", "forget", push + "/7", "renamed.topic/0");

        assertThat(forgot.exit()).as(forgot.err()).isZero();
        assertThat(forgot.out()).contains("forgot " + push + "/7 (its mark was ", "forgot renamed.topic/0");
        Lapse.Outcome after = rig.lapse("watermarks", "--json");
        assertThat(after.exit()).isZero();
        assertThat(after.json().get("unreported")).isEmpty();
        assertThat(after.out()).doesNotContain("renamed.topic");
    }

    @Test
    void aPartitionThatExistsIsNeverForgotten() {
        reportEveryPartitionAnd();

        Lapse.Outcome refused = rig.lapse("watermarks", "forget", push + "/1");
        Lapse.Outcome notAPartition = rig.lapse("watermarks", "forget", "just-a-topic");
        Lapse.Outcome noMark = rig.lapse("watermarks", "forget", push + "/9");

        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("refusing to forget " + push + "/1: the partition exists");
        assertThat(notAPartition.err()).contains("'just-a-topic' is not topic/partition");
        assertThat(noMark.err()).contains("there is no watermark for " + push + "/9");
        assertThat(rig.watermarks.all().join()).containsKey(push + "/1");
    }
}
