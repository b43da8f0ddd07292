package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.config.TimerSettings;
import io.lapse.event.JsonCodec;
import io.lapse.event.TimerExpired;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Folds the inputs that came through the repartition topic into the mirror of this task's partition, forgets orders
 * once nothing happened to them, and publishes the expiries of silences that ended unfired ({@link UnfiredSilences},
 * {@link PulledSilences}) once their grace is over, as records of the expired topic.
 */
final class OrderTracker implements Processor<String, MirrorInput, byte[], byte[]> {

    private static final Logger log = LoggerFactory.getLogger(OrderTracker.class);

    /** How often pending silences are looked at, while there are any. */
    static final Duration SILENCE_CHECK = Duration.ofSeconds(1);

    private final Duration pruneInterval;
    private final TimerSettings timer;
    private ProcessorContext<byte[], byte[]> context;
    private OrderFold fold;
    private final FolderProgress folder = new FolderProgress();
    /** The punctuation publishing silences, scheduled only while some wait: none at rest. */
    private Cancellable silenceCheck;

    OrderTracker(Duration pruneInterval, TimerSettings timer) {
        this.pruneInterval = pruneInterval;
        this.timer = timer;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        fold = OrderFold.of(context, timer);
        MirrorPrune prune =
                new MirrorPrune(fold.orders(), timer.tombstoneRetention(), pruneInterval, MirrorPrune.SLICE);
        schedule(context, prune, prune.tick());
        if (!fold.unfired().isEmpty() || !fold.pulled().isEmpty()) {
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
        if (record.value() instanceof MirrorInput.PushesRead read) {
            folder.learn(read);
            return;
        }
        String orderId = record.key();
        if (fold.fold(orderId, fold.current(orderId), record.value(), context.currentSystemTimeMs())) {
            checkSilences();
        }
    }

    private void publish(TimerExpired expiry, long now) {
        context.forward(new Record<>(expiry.recordKey(), JsonCodec.TIMER_EXPIRED.encode(expiry), now));
    }

    /** Looks at the pending silences every {@link #SILENCE_CHECK} while there are any. */
    private void checkSilences() {
        if (silenceCheck == null) {
            silenceCheck = context.schedule(SILENCE_CHECK, PunctuationType.WALL_CLOCK_TIME, this::publishDue);
        }
    }

    private void publishDue(long now) {
        for (TimerExpired expiry : fold.unfired().takeDue(now)) {
            log.info(
                    "order {}: its silence from {} ended before any expiry of it was seen; publishing that expiry"
                            + " (deadline {})",
                    expiry.orderId(),
                    expiry.lastSeen(),
                    expiry.deadline());
            publish(expiry, now);
        }
        List<PulledSilences.Judged> due = new ArrayList<>();
        List<PulledSilences.Judged> givenUp = new ArrayList<>();
        fold.pulled().takeJudged(now, UnfiredSilences.GRACE, folder::handedOverBefore, due, givenUp);
        for (PulledSilences.Judged silence : due) {
            TimerExpired expiry = fold.unfired().firstAttempt(silence.orderId(), silence.lastSeen(), now);
            log.info(
                    "order {}: its silence from {} was ended by a status at or after {} that reached the mirror before"
                            + " the push folder's, before any expiry of it was seen, and no push came inside it;"
                            + " publishing that expiry (deadline {})",
                    expiry.orderId(),
                    expiry.lastSeen(),
                    silence.endedBy(),
                    expiry.deadline());
            publish(expiry, now);
        }
        for (PulledSilences.Judged silence : givenUp) {
            log.warn(
                    "order {}: its silence from {}, ended by a status at or after {}, is not fired: the push folder has"
                            + " not said for {} that it handed over the pushes before it (is a compensator's push"
                            + " folder stuck?)",
                    silence.orderId(),
                    silence.lastSeen(),
                    silence.endedBy(),
                    PulledSilences.LONGEST_WAIT);
        }
        if (fold.unfired().isEmpty() && fold.pulled().isEmpty()) {
            silenceCheck.cancel();
            silenceCheck = null;
        }
    }
}
