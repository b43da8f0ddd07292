package io.lapse.compensator.rebuild;

import io.lapse.compensator.fold.CaughtUp;
import io.lapse.compensator.mirror.Blocking;
import io.lapse.compensator.mirror.MirrorSource;
import io.lapse.compensator.mirror.MirrorWriter;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.RebuildCount;
import io.lapse.store.timers.TimerImage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds every timer Redis should hold from the whole mirror, then declares each shard's new epoch, from which the
 * timer fires again. The epoch is claimed before waiting for the compensator to catch up: whatever Redis loses after
 * that, the mirror will know, and whatever it loses after the claim takes the claim with it, so that shard is not
 * declared and is rebuilt again.
 *
 * <p>The mirror is written in two passes, so that the orders due soon do not wait for the whole of it: the first writes
 * every finished and given-up mark (they keep replayed old statuses from reviving an order, so they must be in place
 * before anything fires) and every watched order due within {@link #FIRST_PASS_HORIZON}, then declares each shard
 * rebuilt up to that moment, from which the timer fires what the rebuild wrote and is due by then (claim.lua); the
 * second pass reads the mirror again and writes the watched orders due later. Reading is cheap beside Redis's writes,
 * and an order whose state changed between the reads changed by a record published after the catch-up, which ingest
 * or the timer applied to Redis too.
 *
 * <p>A mirror still behind its input topics once the catch-up time is over cannot vouch for the orders whose records
 * it has not read: those that finished meanwhile would be armed again, and expiries already published would fire
 * again. The automatic rebuild therefore {@link WhenBehind#POSTPONE postpones} (it writes nothing and declares nothing,
 * and the next look tries again), while on-call's {@code lapse rebuild} may {@link WhenBehind#GO_AHEAD go ahead}, told
 * how far behind the mirror was.
 */
public final class FullRebuild {

    private static final Logger log = LoggerFactory.getLogger(FullRebuild.class);

    /**
     * How far ahead of the first pass its watched orders are due. Orders due after it fire only once the epoch is
     * declared, so it must outlast the second pass (about 11 s at 500,000 orders, docs/benchmarks.md) with room for a
     * larger mirror and a slower Redis; the shorter it is, the fewer orders the first pass writes. Measured on the
     * compensator's clock, whose skew against Redis's is small beside it.
     */
    static final Duration FIRST_PASS_HORIZON = Duration.ofSeconds(60);

    private final RedisEpochs epochs;
    private final CaughtUp caughtUp;
    private final Supplier<MirrorSource> mirror;
    private final Clock clock;

    /** @param mirror opens the whole mirror, read anew for every rebuild */
    public FullRebuild(RedisEpochs epochs, CaughtUp caughtUp, Supplier<MirrorSource> mirror, Clock clock) {
        this.epochs = epochs;
        this.caughtUp = caughtUp;
        this.mirror = mirror;
        this.clock = clock;
    }

    /** What a rebuild does when the mirror has not caught up with its input topics within the catch-up time. */
    public enum WhenBehind {
        /** Write nothing and declare nothing: the rebuild is {@link RebuildResult#postponed() postponed}. */
        POSTPONE,
        /** Rebuild from what the mirror has read, and say how far behind it was. */
        GO_AHEAD
    }

    /** Told how far a rebuild got, e.g. to draw a progress bar. */
    public interface Listener extends MirrorSource.Progress {
        Listener NONE = new Listener() {
            @Override
            public void opened(long size) {}

            @Override
            public void advanced(long done) {}
        };

        /** The mirror is open for a pass and this big, in the units {@link #advanced} counts from 0 in each pass. */
        void opened(long size);
    }

    /**
     * @param writer  writes the mirror into Redis; a dry run's writer writes nothing, and no epoch is touched
     * @param catchUp how long to wait for the compensator to process what was published before the rebuild
     */
    public RebuildResult run(MirrorWriter writer, Duration catchUp, WhenBehind whenBehind, Listener listener)
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
        FirstPass firstPass = new FirstPass(caughtUpAt + FIRST_PASS_HORIZON.toMillis());
        Duration open = pass(writer, firstPass, listener);
        RebuildCount first = writer.total(); // every write of the pass done before any shard is declared up to it
        long firstWrittenAt = clock.millis();
        if (!dryRun && firstPass.left > 0) {
            declareFirstPass(generations, firstPass, first, firstWrittenAt - started);
        }
        long firstDeclaredAt = clock.millis();
        if (firstPass.left > 0) {
            open = open.plus(pass(writer, firstPass.rest(), listener));
        }
        RebuildCount count = writer.total(); // every write done before any shard is declared
        long writtenAt = clock.millis();
        Set<Integer> declared =
                dryRun ? Set.of() : Blocking.await(epochs.finish(generations), "declare the shards rebuilt");
        long declaredAt = clock.millis();
        Set<Integer> lost = new TreeSet<>(generations.keySet());
        lost.removeAll(declared);
        Duration handedOver = writer.encoding().plus(writer.redisWait());
        Duration declaring = Duration.ofMillis(declaredAt - writtenAt + firstDeclaredAt - firstWrittenAt);
        RebuildPhases phases = new RebuildPhases(
                waited,
                open,
                nonNegative(Duration.ofMillis(declaredAt - caughtUpAt)
                        .minus(open)
                        .minus(handedOver)
                        .minus(declaring)),
                writer.encoding(),
                writer.redisWait(),
                declaring,
                Duration.ofMillis((firstPass.left > 0 ? firstDeclaredAt : declaredAt) - started));
        return new RebuildResult(
                count, behind, declared, lost, Duration.ofMillis(declaredAt - started), phases, dryRun, false);
    }

    private void declareFirstPass(
            Map<Integer, String> generations, FirstPass firstPass, RebuildCount written, long tookMillis) {
        Set<Integer> upTo = Blocking.await(
                epochs.rebuiltUpTo(generations, firstPass.horizon), "declare the shards rebuilt up to the horizon");
        log.info(
                "shards {} rebuilt up to {} ({} s ahead) after {} ms: wrote {} finished and given-up marks and {} "
                        + "timers due by then ({} orders already in place), which fire now; writing the {} timers due "
                        + "later",
                upTo.equals(generations.keySet()) ? "all" : upTo,
                Instant.ofEpochMilli(firstPass.horizon),
                FIRST_PASS_HORIZON.toSeconds(),
                tookMillis,
                written.givenUp() + written.ended(),
                written.watched(),
                written.kept(),
                firstPass.left);
    }

    /**
     * What the first pass writes: every finished and given-up mark, and the watched orders due by the horizon. It
     * counts the orders it leaves to the second pass, which writes the {@link #rest}.
     */
    private static final class FirstPass implements Predicate<TimerImage> {

        private final long horizon;
        private long left;

        FirstPass(long horizon) {
            this.horizon = horizon;
        }

        @Override
        public boolean test(TimerImage image) {
            if (writes(image)) {
                return true;
            }
            left++;
            return false;
        }

        Predicate<TimerImage> rest() {
            return image -> !writes(image);
        }

        private boolean writes(TimerImage image) {
            return image.phase() != TimerImage.Phase.WATCHED || image.at() <= horizon;
        }
    }

    /** Reads the whole mirror anew and writes the images {@code include} accepts; returns how long opening took. */
    private Duration pass(MirrorWriter writer, Predicate<TimerImage> include, Listener listener) {
        long started = clock.millis();
        MirrorSource source = mirror.get();
        listener.opened(source.size());
        long openedAt = clock.millis();
        source.read(batch -> writer.write(batch, include), listener);
        return Duration.ofMillis(openedAt - started);
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
