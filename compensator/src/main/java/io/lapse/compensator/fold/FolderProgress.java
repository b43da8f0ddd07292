package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.MirrorInput;
import java.util.HashMap;
import java.util.Map;

/**
 * How far the push folder has handed the pushes over, per partition of the push topic, as its words ({@link
 * MirrorInput.PushesRead}) told one task of the mirror. Every instance's folder writes its word to every partition of
 * the mirror with each hand-over, so each task hears of every partition. In memory: a restarted task knows nothing
 * until each partition's next word, which is at most a round away (compensator.scan-interval).
 */
final class FolderProgress {

    private final Map<Integer, Long> handedOverBefore = new HashMap<>();
    private int topicPartitions;

    void learn(MirrorInput.PushesRead read) {
        topicPartitions = Math.max(topicPartitions, read.topicPartitions());
        read.partitions().forEach(partition -> handedOverBefore.merge(partition, read.upTo(), Math::max));
    }

    /** Whether every push appended to the push topic before {@code time} (wall clock, ms) has reached the mirror. */
    boolean handedOverBefore(long time) {
        if (topicPartitions == 0) {
            return false;
        }
        for (int partition = 0; partition < topicPartitions; partition++) {
            Long upTo = handedOverBefore.get(partition);
            if (upTo == null || upTo < time) {
                return false;
            }
        }
        return true;
    }
}
