package io.lapse.ingest;

import java.time.Clock;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads when the timer next needs the watermark, the earliest score of its due sets, for the {@link ProofSchedule}: as
 * often as the schedule says, and at the next turn after an arm script announced an earlier deadline (the wake
 * message the timer hears too). One read at a time, each a ZRANGE of one entry per shard; a read that fails leaves the
 * schedule as it was, and the next is tried at the usual time.
 */
final class DueLook {

    private static final Logger log = LoggerFactory.getLogger(DueLook.class);

    private final Supplier<CompletableFuture<OptionalLong>> earliestDue;
    private final ProofSchedule schedule;
    private final Runnable looked;
    private final Clock clock;
    private volatile CompletableFuture<Void> looking = CompletableFuture.completedFuture(null);
    private volatile long nextLook = Long.MIN_VALUE;
    /** Set when an earlier deadline was announced, also during a read that may have missed it. */
    private volatile boolean wanted;

    private boolean failing;

    /** @param looked told after each read, e.g. to wake the thread that asks the broker */
    DueLook(
            Supplier<CompletableFuture<OptionalLong>> earliestDue,
            ProofSchedule schedule,
            Runnable looked,
            Clock clock) {
        this.earliestDue = earliestDue;
        this.schedule = schedule;
        this.looked = looked;
        this.clock = clock;
    }

    /** Reads the due sets unless a read is under way or the next is not due yet. */
    void lookIfDue() {
        long now = clock.millis();
        if (!looking.isDone() || (!wanted && now < nextLook)) {
            return;
        }
        wanted = false;
        looking = earliestDue.get().handle((due, failure) -> {
            if (failure == null) {
                schedule.earliestDue(due);
                if (failing) {
                    log.info("ingest reads the timer's due sets again");
                    failing = false;
                }
            } else if (!failing) {
                log.warn(
                        "cannot read the timer's due sets; the broker is asked for the caught-up proof as before until"
                                + " they answer: {}",
                        failure.toString());
                failing = true;
            }
            nextLook = schedule.nextLook(now);
            looked.run();
            return null;
        });
    }

    /** An earlier deadline was armed: read the due sets at the next turn. */
    void soon() {
        wanted = true;
        looked.run();
    }

    /** How long the thread may wait before the next read is due; 0 when it is due, long while one is under way. */
    long millisUntilLook() {
        if (!looking.isDone()) {
            return ProofSchedule.AT_REST.toMillis();
        }
        return wanted ? 0 : Math.max(0, nextLook - clock.millis());
    }
}
