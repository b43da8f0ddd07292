package io.lapse.compensator;

import io.lapse.store.RebuildCount;
import io.lapse.store.RedisEpochs;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds every timer Redis should hold from the whole mirror, then declares each shard's new epoch, from which the
 * timer fires again. The epoch is claimed before waiting for the compensator to catch up: whatever Redis loses after
 * that, the mirror will know, and whatever it loses after the claim takes the claim with it, so that shard is not
 * declared and is rebuilt again.
 *
 * <p>A mirror still behind its input topics once the catch-up time is over cannot vouch for the orders whose records
 * it has not read: those that finished meanwhile would be armed again, and expiries already published would fire
 * again. The automatic rebuild therefore {@link WhenBehind#POSTPONE postpones} (it writes nothing and declares nothing,
 * and the next look tries again), while on-call's {@code lapse rebuild} may {@link WhenBehind#GO_AHEAD go ahead}, told
 * how far behind the mirror was.
 */
final class FullRebuild {

    private static final Logger log = LoggerFactory.getLogger(FullRebuild.class);

    private final RedisEpochs epochs;
    private final CaughtUp caughtUp;
    private final Supplier<MirrorSource> mirror;
    private final Clock clock;

    /** @param mirror opens the whole mirror, read anew for every rebuild */
    FullRebuild(RedisEpochs epochs, CaughtUp caughtUp, Supplier<MirrorSource> mirror, Clock clock) {
        this.epochs = epochs;
        this.caughtUp = caughtUp;
        this.mirror = mirror;
        this.clock = clock;
    }

    /** What a rebuild does when the mirror has not caught up with its input topics within the catch-up time. */
    enum WhenBehind {
        /** Write nothing and declare nothing: the rebuild is {@link RebuildResult#postponed() postponed}. */
        POSTPONE,
        /** Rebuild from what the mirror has read, and say how far behind it was. */
        GO_AHEAD
    }

    /** Told how far a rebuild got, e.g. to draw a progress bar. */
    interface Listener extends MirrorSource.Progress {
        Listener NONE = new Listener() {
            @Override
            public void opened(long size) {}

            @Override
            public void advanced(long done) {}
        };

        /** The mirror is open and this big, in the units {@link #advanced} counts. */
        void opened(long size);
    }

    /**
     * @param writer  writes the mirror into Redis; a dry run's writer writes nothing, and no epoch is touched
     * @param catchUp how long to wait for the compensator to process what was published before the rebuild
     */
    RebuildResult run(MirrorWriter writer, Duration catchUp, WhenBehind whenBehind, Listener listener)
            throws InterruptedException {
        boolean dryRun = writer.dryRun();
        long started = clock.millis();
        Map<Integer, String> generations =
                dryRun ? Map.of() : Blocking.await(epochs.begin(candidate(started)), "begin the rebuild's epoch");
        long behind = caughtUp.await(catchUp);
        long caughtUpAt = clock.millis();
        Duration waited = Duration.ofMillis(caughtUpAt - started);
        if (behind > 0 && whenBehind == WhenBehind.POSTPONE && !dryRun) {
            return RebuildResult.postponed(behind, waited);
        }
        if (behind > 0) {
            log.warn(
                    "the compensator is still {} records behind its input topics after {} s: rebuilding from what it "
                            + "has read, so expiries among those records may fire again or not at all",
                    behind,
                    catchUp.toSeconds());
        }
        MirrorSource source = mirror.get();
        listener.opened(source.size());
        long openedAt = clock.millis();
        source.read(batch -> writer.write(batch, image -> true), listener);
        RebuildCount count = writer.total(); // every write done before any shard is declared
        long writtenAt = clock.millis();
        Set<Integer> declared =
                dryRun ? Set.of() : Blocking.await(epochs.finish(generations), "declare the shards rebuilt");
        long declaredAt = clock.millis();
        Set<Integer> lost = new TreeSet<>(generations.keySet());
        lost.removeAll(declared);
        Duration handedOver = writer.encoding().plus(writer.redisWait());
        RebuildPhases phases = new RebuildPhases(
                waited,
                Duration.ofMillis(openedAt - caughtUpAt),
                nonNegative(Duration.ofMillis(writtenAt - openedAt).minus(handedOver)),
                writer.encoding(),
                writer.redisWait(),
                Duration.ofMillis(declaredAt - writtenAt));
        return new RebuildResult(
                count, behind, declared, lost, Duration.ofMillis(declaredAt - started), phases, dryRun, false);
    }

    /** Phases timed by two clocks (the writer's and this one) may come out a millisecond below zero. */
    private static Duration nonNegative(Duration phase) {
        return phase.isNegative() ? Duration.ZERO : phase;
    }

    /** An epoch name that says when it began, unique enough among the rebuilds of one Redis. */
    private static String candidate(long now) {
        return now + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000, 0x100000));
    }
}
