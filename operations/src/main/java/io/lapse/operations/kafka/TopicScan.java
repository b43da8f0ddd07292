package io.lapse.operations.kafka;

import io.lapse.operations.cli.Progress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/** Reads the records of some offset ranges once, in offset order per partition, with an assigned consumer. */
public final class TopicScan {

    /** What to do with each record read. */
    @FunctionalInterface
    public interface Visitor {
        void visit(ConsumerRecord<byte[], byte[]> record);
    }

    private static final Duration POLL = Duration.ofMillis(200);

    private TopicScan() {}

    public static long total(List<OffsetRange> ranges) {
        return ranges.stream().mapToLong(OffsetRange::size).sum();
    }

    /**
     * @param stall how long the scan may go without reading anything before it gives up: the broker is gone
     * @return the records read
     */
    public static long read(
            Consumer<byte[], byte[]> consumer,
            List<OffsetRange> ranges,
            Visitor visitor,
            Progress progress,
            Duration stall) {
        Map<TopicPartition, Long> ends = new HashMap<>();
        ranges.stream().filter(r -> r.size() > 0).forEach(r -> ends.put(r.partition(), r.end()));
        consumer.assign(ends.keySet());
        ranges.stream().filter(r -> r.size() > 0).forEach(r -> consumer.seek(r.partition(), r.start()));
        long read = 0;
        long lastProgress = System.nanoTime();
        while (!ends.isEmpty()) {
            int before = ends.size();
            long readBefore = read;
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                Long end = ends.get(new TopicPartition(record.topic(), record.partition()));
                if (end != null && record.offset() < end) {
                    visitor.visit(record);
                    read++;
                    progress.advance(1);
                }
            }
            ends.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
            consumer.pause(consumer.assignment().stream()
                    .filter(tp -> !ends.containsKey(tp))
                    .toList());
            if (read > readBefore || ends.size() < before) {
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > stall.toNanos()) {
                throw new TimeoutException("no records within " + stall);
            }
        }
        consumer.unsubscribe();
        return read;
    }
}
