package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.Fired;
import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.OrderState;
import io.lapse.config.TimerSettings;
import io.lapse.event.OrderUpdate;
import io.lapse.event.TimerExpired;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The silences of a task's orders that ended, by a push, before any expiry of them reached the mirror: Redis lost
 * their deadline, or the watermark held it back, until the push re-armed the order, so the timer may never fire them.
 * Each waits {@link #GRACE} for its expiry (which comes on another topic, in no particular order with the pushes) and
 * is then published by the compensator, as the timer would have published it. Kept in a store of the streams, so that
 * a restart neither loses nor repeats one: orderId → pairs of (lastSeen, noted at), usually none.
 */
final class UnfiredSilences {

    /** How long a silence waits for the timer's expiry of it after the mirror noticed that it ended. */
    static final Duration GRACE = Duration.ofSeconds(5);

    private static final int FROM = 0;
    private static final int NOTED_AT = 1;

    private final SilenceRecords records;
    private final Duration ttl;
    private final int maxAttempts;

    UnfiredSilences(KeyValueStore<String, long[]> store, TimerSettings timer) {
        this.records = new SilenceRecords(store, 2);
        this.ttl = timer.ttl();
        this.maxAttempts = timer.maxAttempts();
    }

    static Serde<long[]> serde() {
        return SilenceRecords.serde();
    }

    /**
     * Notes the silence a push ended, when the order's state before that push shows it may never have fired.
     *
     * @return whether one was noted
     */
    boolean note(String orderId, OrderState current, MirrorInput.Silence silence, long now) {
        long from = OrderState.unfiredSilence(current, silence.lastSeen(), silence.endedBy(), ttl);
        return from != MirrorInput.Silence.UNKNOWN && records.add(orderId, new long[] {from, now});
    }

    /**
     * Forgets the silences an input shows fired (an expiry counting from where one began) or never were (a status
     * within the ttl after where one began, which arrived late). Costs nothing while the task has none.
     */
    void clear(String orderId, MirrorInput input) {
        records.update(orderId, (id, silence) -> settles(input, silence[FROM]) ? null : silence);
    }

    private boolean settles(MirrorInput input, long from) {
        if (input instanceof Fired fired) {
            return fired.lastSeen() == from;
        }
        OrderUpdate update = input instanceof MirrorInput.Status status
                ? status.update()
                : input instanceof MirrorInput.Pulled pulled
                        ? pulled.update()
                        : input instanceof MirrorInput.Resumed resumed ? resumed.update() : null;
        if (update != null && update.kind() != OrderUpdate.Kind.GONE) {
            long time = update.eventTime();
            return time > from && time - from <= ttl.toMillis();
        }
        return false;
    }

    /** Takes the silences whose grace ended by {@code now} out of the store, as the expiries to publish for them. */
    List<TimerExpired> takeDue(long now) {
        List<TimerExpired> due = new ArrayList<>();
        records.updateAll((orderId, silence) -> {
            if (silence[NOTED_AT] + GRACE.toMillis() > now) {
                return silence;
            }
            due.add(firstAttempt(orderId, silence[FROM], now));
            return null;
        });
        return due;
    }

    boolean isEmpty() {
        return records.isEmpty();
    }

    /** A silence's first attempt, as the timer would have fired it: deadline lastSeen + ttl. */
    TimerExpired firstAttempt(String orderId, long lastSeen, long now) {
        return new TimerExpired(
                orderId,
                lastSeen + ttl.toMillis(),
                lastSeen,
                1,
                now,
                TimerExpired.Source.COMPENSATOR,
                maxAttempts == 1);
    }
}
