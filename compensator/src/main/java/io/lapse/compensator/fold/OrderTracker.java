package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.OrderState;
import io.lapse.config.TimerSettings;
import io.lapse.event.JsonCodec;
import io.lapse.event.TimerExpired;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Folds the inputs that came through the repartition topic into the mirror of this task's partition, forgets orders
 * once nothing happened to them, and publishes the expiries of silences that ended unfired ({@link UnfiredSilences})
 * once their grace is over, as records of the expired topic.
 */
final class OrderTracker implements Processor<String, MirrorInput, byte[], byte[]> {

    private static final Logger log = LoggerFactory.getLogger(OrderTracker.class);

    /** How often pending silences are looked at, while there are any. */
    static final Duration SILENCE_CHECK = Duration.ofSeconds(1);

    private final Duration pruneInterval;
    private final TimerSettings timer;
    private ProcessorContext<byte[], byte[]> context;
    private KeyValueStore<String, OrderState> orders;
    private UnfiredSilences silences;
    /** The punctuation publishing silences, scheduled only while some wait: none at rest. */
    private Cancellable silenceCheck;

    OrderTracker(Duration pruneInterval, TimerSettings timer) {
        this.pruneInterval = pruneInterval;
        this.timer = timer;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        orders = context.getStateStore(CompensatorTopology.STORE);
        silences = new UnfiredSilences(context.getStateStore(CompensatorTopology.UNFIRED_SILENCES), timer);
        MirrorPrune prune = new MirrorPrune(orders, timer.tombstoneRetention(), pruneInterval, MirrorPrune.SLICE);
        schedule(context, prune, prune.tick());
        if (!silences.isEmpty()) {
            checkSilences(); // restored from the changelog: their graces went on while the task was away
        }
    }

    /**
     * Wall-clock time: forgetting must go on while no records arrive. Each punctuation costs a commit, so the cadence
     * follows the pruning's: ticks while a pass walks the store, one punctuation per interval between passes.
     */
    private static void schedule(ProcessorContext<byte[], byte[]> context, MirrorPrune prune, Duration every) {
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
        if (OrderFold.fold(orders, silences, record.key(), record.value(), context.currentSystemTimeMs())) {
            checkSilences();
        }
    }

    /** Looks at the pending silences every {@link #SILENCE_CHECK} while there are any. */
    private void checkSilences() {
        if (silenceCheck == null) {
            silenceCheck = context.schedule(SILENCE_CHECK, PunctuationType.WALL_CLOCK_TIME, this::publishDue);
        }
    }

    private void publishDue(long now) {
        for (TimerExpired expiry : silences.takeDue(now)) {
            log.info(
                    "order {}: its silence from {} ended before any expiry of it was seen; publishing that expiry"
                            + " (deadline {})",
                    expiry.orderId(),
                    expiry.lastSeen(),
                    expiry.deadline());
            context.forward(new Record<>(expiry.recordKey(), JsonCodec.TIMER_EXPIRED.encode(expiry), now));
        }
        if (silences.isEmpty()) {
            silenceCheck.cancel();
            silenceCheck = null;
        }
    }
}
