package io.lapse.compensator;

import java.time.Duration;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/** Keeps the mirror of each order of its partition up to date, and forgets orders once nothing happened to them. */
final class OrderTracker implements Processor<String, MirrorInput, Void, Void> {

    private final Duration pruneInterval;
    private final Duration retention;
    private KeyValueStore<String, OrderState> orders;

    OrderTracker(Duration pruneInterval, Duration retention) {
        this.pruneInterval = pruneInterval;
        this.retention = retention;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        orders = context.getStateStore(CompensatorTopology.STORE);
        MirrorPrune prune = new MirrorPrune(orders, retention, pruneInterval, MirrorPrune.SLICE);
        // wall-clock time: forgetting must go on while no records arrive
        context.schedule(prune.tick(), PunctuationType.WALL_CLOCK_TIME, prune);
    }

    @Override
    public void process(Record<String, MirrorInput> record) {
        OrderState current = orders.get(record.key());
        OrderState next = record.value().applyTo(current);
        if (next == current) {
            return; // nothing changed: spare the changelog a write
        }
        if (next == null) {
            orders.delete(record.key());
        } else {
            orders.put(record.key(), next);
        }
    }
}
