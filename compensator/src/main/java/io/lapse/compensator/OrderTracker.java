package io.lapse.compensator;

import java.time.Duration;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Folds the inputs that came through the repartition topic into the mirror of this task's partition, and forgets
 * orders once nothing happened to them.
 */
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
        OrderFold.fold(orders, record.key(), record.value());
    }
}
