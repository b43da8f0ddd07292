package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.OrderState;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.processor.Cancellable;
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
        schedule(context, prune, prune.tick());
    }

    /**
     * Wall-clock time: forgetting must go on while no records arrive. Each punctuation costs a commit, so the cadence
     * follows the pruning's: ticks while a pass walks the store, one punctuation per interval between passes.
     */
    private static void schedule(ProcessorContext<Void, Void> context, MirrorPrune prune, Duration every) {
        AtomicReference<Cancellable> scheduled = new AtomicReference<>();
        scheduled.set(context.schedule(every, PunctuationType.WALL_CLOCK_TIME, now -> {
            prune.punctuate(now);
            Duration next = prune.tick();
            if (!next.equals(every)) {
                scheduled.get().cancel();
                schedule(context, prune, next);
            }
        }));
    }

    @Override
    public void process(Record<String, MirrorInput> record) {
        OrderFold.fold(orders, record.key(), record.value());
    }
}
