package io.lapse.ingest;

import io.lapse.store.watermarks.WatermarkReport;
import io.lapse.store.watermarks.Watermarks;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;

/**
 * How far each assigned partition has been read, as a mark that holds once what was read is applied: the newest
 * record timestamp read (never later than when it was read), or the time of a {@link CaughtUpProof} the partition
 * was read up to. It only moves forward, until a partition is revoked or its batch fails. Marks are reported held
 * back by the {@link LatenessAllowance} of records that arrived later than the slack allows.
 *
 * <p>A record's timestamp is its producer's claim. While ingest works through a backlog, one record stamped ahead (a
 * producer whose clock runs fast, a device-set time) would claim the partition read up to now, with the records
 * behind it unread, and the timer would fire their orders. So a record moves its partition's mark at most the slack
 * beyond the mark the records and proofs before it earned; only the broker's proof moves a mark further at once.
 */
final class PartitionProgress {

    private final Map<TopicPartition, Mark> marks = new HashMap<>();
    private final long slackMillis;
    private final LatenessAllowance allowance;

    /**
     * @param slack how far behind a mark a record may still arrive (timer.watermark-slack)
     * @param ttl   the most a mark is held back for records that arrived later (timer.ttl)
     */
    PartitionProgress(Duration slack, Duration ttl) {
        this.slackMillis = slack.toMillis();
        this.allowance = new LatenessAllowance(ttl.toMillis());
    }

    /**
     * What one record told of its partition's time.
     *
     * @param late    the record arrived later than the slack allows: its timestamp was already further behind the
     *                partition's mark, so a producer held it longer than timer.watermark-slack, and the timer may have
     *                fired its order meanwhile although it spoke in time
     * @param aheadBy how far the record's timestamp lies after the moment ingest read it (its producer's clock runs at
     *                least that fast), ms; 0 when it does not
     * @param behindBy how far the record's timestamp lies before its partition's mark (the slack not yet taken off),
     *                ms; 0 when it does not: the slack must be longer, or the record is late
     */
    record Reading(boolean late, long aheadBy, long behindBy) {
        static final Reading NOTHING = new Reading(false, 0, 0);
    }

    Reading consumed(TopicPartition partition, long recordTimestamp, long readTime) {
        if (recordTimestamp < 0) {
            // a record without a timestamp (message format v0) tells nothing of time; only the broker's proof does
            return Reading.NOTHING;
        }
        long claimed = Math.min(recordTimestamp, readTime);
        Mark mark = marks.get(partition);
        long behind = 0;
        if (mark == null) {
            // the first record of a partition has nothing before it to be held against
            marks.put(partition, new Mark(claimed));
        } else {
            behind = Math.max(0, mark.millis - recordTimestamp);
            mark.millis = Math.max(mark.millis, Math.min(claimed, mark.millis + slackMillis));
        }
        long beyondSlack = behind - slackMillis;
        if (beyondSlack > 0) {
            allowance.observe(beyondSlack, readTime);
        }
        return new Reading(beyondSlack > 0, Math.max(0, recordTimestamp - readTime), behind);
    }

    /**
     * The report that holds once everything read so far is applied.
     *
     * @param position how far the consumer has read each partition (its next offset), empty when unknown
     * @param proof    the broker's newest answer, or null before the first
     */
    WatermarkReport report(
            Collection<TopicPartition> assigned,
            Function<TopicPartition, OptionalLong> position,
            CaughtUpProof proof,
            long madeAt) {
        long heldBack = allowance.current(madeAt);
        Map<String, Long> report = new HashMap<>();
        for (TopicPartition partition : assigned) {
            if (proof != null && proof.reached(partition, position.apply(partition))) {
                Mark reached = marks.computeIfAbsent(partition, p -> new Mark(proof.askedAt()));
                reached.millis = Math.max(reached.millis, proof.askedAt());
            }
            Mark mark = marks.get(partition);
            if (mark != null) {
                report.put(Watermarks.field(partition.topic(), partition.partition()), mark.millis - heldBack);
            }
        }
        return proof == null
                ? new WatermarkReport(report, Map.of(), 0, madeAt)
                : new WatermarkReport(report, proof.partitions(), proof.askedAt(), madeAt);
    }

    /** How far marks are held back now for records that arrived late, ms. */
    long heldBack(long now) {
        return allowance.current(now);
    }

    void forget(Collection<TopicPartition> revoked) {
        revoked.forEach(marks::remove);
    }

    /** A partition's mark, moved in place: ingest reads it for every record, so it is looked up once and not boxed. */
    private static final class Mark {

        private long millis;

        Mark(long millis) {
            this.millis = millis;
        }
    }
}
