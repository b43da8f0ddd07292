package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.Fired;
import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.OrderState;
import io.lapse.event.OrderUpdate;
import java.time.Duration;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The silences of a task's orders that a pulled status ended before any expiry of them reached the mirror: the pull of
 * an earlier expiry came back with a status newer than the deadline of the silence that began since, while Redis had
 * lost that deadline, and the pulled status re-armed the order. No push ended the silence, so the push folder never
 * reports it ({@link UnfiredSilences}). Also those an expiry counting from a status more than the ttl newer than the
 * mirror's shows may have ended unfired: the push that ended such a silence reaches the mirror after the expiry (the
 * folder lost its hand-over in a restart and read the push again), when the mirror's state has moved past it and the
 * folder's report of the silence no longer shows it.
 *
 * <p>Unlike a push, a pull or an expiry is judged against the mirror's newest status, which lags the pushes by up to a
 * round of the push folder: a push between that status and the newer one may not have reached the mirror yet. So a
 * silence noted from either waits, beside the timer's grace, until the mirror holds every push that was on the push
 * topic when it was noted: the push folder's word that it handed those over ({@link FolderProgress}), or a word of the
 * folder that proves the silence by itself (a silence of its pushes around it, or the order's first push after it).
 * Any other push of the order after the silence began, or a pulled status inside it, takes it back: the mirror then
 * cannot tell what came between, and a silence left unfired is better than a live order fired. Kept in a store of the
 * streams, so that a restart neither loses nor repeats one: orderId → quadruples (lastSeen it counts from, the pulled
 * status's time or the moment after the deadline, noted at, proven 0/1), usually none.
 */
final class PulledSilences {

    /** How long a silence waits for the push folder's word before it is given up, when the folder is gone or stuck. */
    static final Duration LONGEST_WAIT = Duration.ofMinutes(5);

    private static final int FROM = 0;
    private static final int ENDED_BY = 1;
    private static final int NOTED_AT = 2;
    private static final int PROVEN = 3;
    private static final int FIELDS = 4;

    /** A silence whose expiry is to be published, or one given up. */
    record Judged(String orderId, long lastSeen, long endedBy) {}

    private final SilenceRecords records;
    private final Duration ttl;

    PulledSilences(KeyValueStore<String, long[]> store, Duration ttl) {
        this.records = new SilenceRecords(store, FIELDS);
        this.ttl = ttl;
    }

    static Serde<long[]> serde() {
        return SilenceRecords.serde();
    }

    /**
     * Whether the input ended a silence that may never have fired, judged by the mirror's state before it: the order
     * was watched, no expiry since its newest status is known, and the input is a pulled status more than the ttl
     * newer, or an expiry counting from such a status.
     */
    static boolean mayEnd(OrderState current, MirrorInput input, Duration ttl) {
        return from(current, input, ttl) != MirrorInput.Silence.UNKNOWN;
    }

    private static long from(OrderState current, MirrorInput input, Duration ttl) {
        long status;
        if (input instanceof MirrorInput.Pulled pulled && pulled.update().kind() != OrderUpdate.Kind.GONE) {
            status = pulled.update().eventTime(); // GONE: upstream does not know the order, no status ended a silence
        } else if (input instanceof Fired fired) {
            status = fired.lastSeen();
        } else {
            return MirrorInput.Silence.UNKNOWN;
        }
        return OrderState.unfiredSilence(current, MirrorInput.Silence.UNKNOWN, status, ttl);
    }

    /**
     * Notes the silence the input ended, when the order's state before it shows it may never have fired. A pulled
     * status ended it; of one an expiry shows, the mirror does not know which push ended it, only that none may have
     * come by its deadline, so the proofs and the pushes that take it back are judged against the moment just after.
     *
     * @return whether one was noted
     */
    boolean note(String orderId, OrderState current, MirrorInput input, long now) {
        long from = from(current, input, ttl);
        if (from == MirrorInput.Silence.UNKNOWN) {
            return false;
        }
        long endedBy =
                input instanceof MirrorInput.Pulled pulled ? pulled.update().eventTime() : from + ttl.toMillis() + 1;
        return records.add(orderId, new long[] {from, endedBy, now, 0});
    }

    /**
     * What an input of the order says about its silences: an expiry counting from where one began fired it; a word of
     * the push folder proves one (no push between a push before it and one after it) or takes it back (a push after
     * it began, with no proof that none came inside it); a pulled status inside one takes it back. Costs nothing
     * while the task has none.
     */
    void learn(String orderId, MirrorInput input) {
        records.update(orderId, (id, silence) -> {
            Verdict verdict = verdict(input, silence);
            if (verdict == Verdict.SETTLED) {
                return null;
            }
            if (verdict == Verdict.PROVEN) {
                silence[PROVEN] = 1;
            }
            return silence;
        });
    }

    private enum Verdict {
        UNCHANGED,
        PROVEN,
        SETTLED
    }

    private static Verdict verdict(MirrorInput input, long[] silence) {
        long from = silence[FROM];
        long endedBy = silence[ENDED_BY];
        boolean proven = silence[PROVEN] != 0;
        LongPredicate inside = time -> time > from && time < endedBy;
        if (input instanceof Fired fired) {
            return fired.lastSeen() == from ? Verdict.SETTLED : Verdict.UNCHANGED;
        }
        if (input instanceof MirrorInput.Pulled pulled) {
            return inside.test(pulled.update().eventTime()) ? Verdict.SETTLED : Verdict.UNCHANGED;
        }
        if (input instanceof MirrorInput.Silence gap) {
            // the folder read the push at gap.lastSeen and then the one at gap.endedBy, none between
            if (gap.endedBy() <= from) {
                return Verdict.UNCHANGED;
            }
            if (gap.lastSeen() != MirrorInput.Silence.UNKNOWN && gap.lastSeen() <= from && gap.endedBy() >= endedBy) {
                return Verdict.PROVEN;
            }
            return proven ? Verdict.UNCHANGED : Verdict.SETTLED;
        }
        if (input instanceof MirrorInput.Resumed resumed) {
            // the order's first push the folder read since it last handed one over, then pushes up to the status's
            if (resumed.endedBy() >= endedBy) {
                return Verdict.PROVEN;
            }
            return resumed.update().eventTime() <= from || proven ? Verdict.UNCHANGED : Verdict.SETTLED;
        }
        if (input instanceof MirrorInput.Status status) {
            // the newest push of a round, whose earlier pushes the mirror does not see
            return status.update().eventTime() <= from || proven ? Verdict.UNCHANGED : Verdict.SETTLED;
        }
        return Verdict.UNCHANGED;
    }

    /**
     * Takes out of the store the silences whose grace ended by {@code now} and which the mirror can judge: proven, or
     * noted before {@code pushesHandedOverBefore} says every push was handed over. Those that waited {@link
     * #LONGEST_WAIT} without are taken out too, given up.
     *
     * @param due      receives the silences to publish
     * @param givenUp  receives the silences given up
     */
    void takeJudged(
            long now, Duration grace, LongPredicate pushesHandedOverBefore, List<Judged> due, List<Judged> givenUp) {
        records.updateAll((orderId, silence) -> {
            long notedAt = silence[NOTED_AT];
            Judged judged = new Judged(orderId, silence[FROM], silence[ENDED_BY]);
            boolean judgeable = silence[PROVEN] != 0 || pushesHandedOverBefore.test(notedAt);
            if (judgeable && notedAt + grace.toMillis() <= now) {
                due.add(judged);
                return null;
            }
            if (now - notedAt >= LONGEST_WAIT.toMillis()) {
                givenUp.add(judged);
                return null;
            }
            return silence;
        });
    }

    boolean isEmpty() {
        return records.isEmpty();
    }
}
