package io.lapse.compensator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Forgets the orders of a partition that nothing happened to for the tombstone retention: Redis forgets their marks
 * after as long (prune.lua), and a watched order fires at least every timer.repeat.
 */
final class MirrorPrune implements Punctuator {

    private final KeyValueStore<String, OrderState> orders;
    private final Duration retention;

    MirrorPrune(KeyValueStore<String, OrderState> orders, Duration retention) {
        this.orders = orders;
        this.retention = retention;
    }

    @Override
    public void punctuate(long now) {
        long oldest = now - retention.toMillis();
        List<String> forgotten = new ArrayList<>();
        try (KeyValueIterator<String, OrderState> entries = orders.all()) {
            while (entries.hasNext()) {
                KeyValue<String, OrderState> entry = entries.next();
                if (entry.value.lastActivity() < oldest) {
                    forgotten.add(entry.key);
                }
            }
        }
        forgotten.forEach(orders::delete);
    }
}
