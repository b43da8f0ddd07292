package io.lapse.compensator;

import io.lapse.store.OrderUpdate;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

import java.time.Duration;

/** Keeps the durable view of each order of its partition up to date, and schedules the scan that repairs Redis. */
final class OrderTracker implements Processor<String, OrderUpdate, Void, Void> {

    private final Duration scanInterval;
    private final Duration retention;
    private final TimerRepair repair;
    private KeyValueStore<String, OrderState> orders;

    OrderTracker(Duration scanInterval, Duration retention, TimerRepair repair) {
        this.scanInterval = scanInterval;
        this.retention = retention;
        this.repair = repair;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        orders = context.getStateStore(CompensatorTopology.STORE);
        // wall-clock time: the scan must run while no records arrive, which is exactly when Redis may need it
        context.schedule(scanInterval, PunctuationType.WALL_CLOCK_TIME, new RepairScan(orders, repair, retention));
    }

    @Override
    public void process(Record<String, OrderUpdate> record) {
        OrderState current = orders.get(record.key());
        OrderState next = OrderState.next(current, record.value());
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
