package io.lapse.compensator;

import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One pass over a partition's orders: forgets those older than the retention, and hands active orders that ingest has
 * read past (lastSeen at or below the watermark, so Redis should know them) to the repair. Orders newer than the
 * watermark are left to ingest. The store is read in chunks, and no iterator stays open across a call to Redis.
 */
final class RepairScan implements Punctuator {

    static final int CHUNK = 1000;

    private static final Logger log = LoggerFactory.getLogger(RepairScan.class);

    private final KeyValueStore<String, OrderState> orders;
    private final TimerRepair repair;
    private final Duration retention;

    RepairScan(KeyValueStore<String, OrderState> orders, TimerRepair repair, Duration retention) {
        this.orders = orders;
        this.repair = repair;
        this.retention = retention;
    }

    @Override
    public void punctuate(long now) {
        long oldest = now - retention.toMillis();
        OptionalLong watermark = watermark();
        List<KeyValue<String, OrderState>> chunk;
        String after = null;
        do {
            chunk = chunkAfter(after);
            Map<String, Long> due = new HashMap<>();
            for (KeyValue<String, OrderState> entry : chunk) {
                OrderState state = entry.value;
                if (state.lastSeen() < oldest) {
                    orders.delete(entry.key);
                } else if (!state.ended() && watermark.isPresent() && state.lastSeen() <= watermark.getAsLong()) {
                    due.put(entry.key, state.lastSeen());
                }
            }
            if (!due.isEmpty() && !recover(due)) {
                watermark = OptionalLong.empty(); // Redis is failing: only prune for the rest of this pass
            }
            after = chunk.isEmpty() ? after : chunk.get(chunk.size() - 1).key;
        } while (chunk.size() == CHUNK);
    }

    private OptionalLong watermark() {
        try {
            return repair.watermark();
        } catch (RuntimeException e) {
            log.warn("cannot read the watermark, repairing again on the next scan: {}", e.toString());
            return OptionalLong.empty();
        }
    }

    /** @return false when the repair failed, which the next scan retries */
    private boolean recover(Map<String, Long> due) {
        try {
            List<String> recovered = repair.recover(due);
            if (!recovered.isEmpty()) {
                log.info("re-armed {} orders the timer store had lost, e.g. {}", recovered.size(), recovered.get(0));
            }
            return true;
        } catch (RuntimeException e) {
            log.warn("cannot recover {} orders, retrying on the next scan: {}", due.size(), e.toString());
            return false;
        }
    }

    /** Up to CHUNK entries with keys after {@code after} (from the first when null), in the store's order. */
    private List<KeyValue<String, OrderState>> chunkAfter(String after) {
        List<KeyValue<String, OrderState>> chunk = new ArrayList<>(CHUNK);
        try (KeyValueIterator<String, OrderState> entries = orders.range(after, null)) {
            while (entries.hasNext() && chunk.size() < CHUNK) {
                KeyValue<String, OrderState> entry = entries.next();
                if (!entry.key.equals(after)) {
                    chunk.add(entry);
                }
            }
        }
        return chunk;
    }
}
