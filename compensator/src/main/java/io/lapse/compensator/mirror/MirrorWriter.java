package io.lapse.compensator.mirror;

import io.lapse.config.TimerSettings;
import io.lapse.store.timers.RebuildCount;
import io.lapse.store.timers.TimerImage;
import io.lapse.store.timers.TimerRebuild;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Writes batches of the mirror into Redis as timer images, wherever Redis holds less, and adds up what it did. A few
 * batches are in flight at once, so that Redis works on one while the next is read and encoded.
 */
public final class MirrorWriter {

    private static final int IN_FLIGHT = 4;

    private final TimerRebuild rebuild;
    private final TimerSettings timer;
    private final boolean dryRun;
    private final Consumer<RebuildCount> written;
    private final Deque<CompletableFuture<RebuildCount>> inFlight = new ArrayDeque<>();
    private RebuildCount total = RebuildCount.NONE;
    private long encodeNanos;
    private long redisWaitNanos;

    /**
     * @param dryRun  count what would be written, and write nothing
     * @param written told what each batch wrote (not in a dry run), e.g. to count it in the metrics
     */
    public MirrorWriter(TimerRebuild rebuild, TimerSettings timer, boolean dryRun, Consumer<RebuildCount> written) {
        this.rebuild = rebuild;
        this.timer = timer;
        this.dryRun = dryRun;
        this.written = written;
    }

    /**
     * Hands a batch to Redis; returns once no more than a few batches are in flight.
     *
     * @param include which images to write; the others are left out of the counts too
     */
    public void write(Map<String, OrderState> batch, Predicate<TimerImage> include) {
        long started = System.nanoTime();
        List<TimerImage> images = new ArrayList<>(batch.size());
        batch.forEach((orderId, state) -> {
            TimerImage image = state.image(orderId, timer.ttl(), timer.repeat());
            if (image != null && include.test(image)) {
                images.add(image);
            }
        });
        if (images.isEmpty()) {
            encodeNanos += System.nanoTime() - started;
            return;
        }
        inFlight.add(rebuild.merge(images, dryRun));
        encodeNanos += System.nanoTime() - started;
        while (inFlight.size() > IN_FLIGHT) {
            collect(inFlight.poll(), images.size());
        }
    }

    public boolean dryRun() {
        return dryRun;
    }

    /** Waits for every batch handed over, and tells what they wrote. */
    public RebuildCount total() {
        while (!inFlight.isEmpty()) {
            collect(inFlight.poll(), 0);
        }
        return total;
    }

    /** Time spent turning orders into images and handing them to Redis, apart from waiting for it. */
    public Duration encoding() {
        return Duration.ofNanos(encodeNanos);
    }

    /** Time spent waiting for Redis to write the batches in flight. */
    public Duration redisWait() {
        return Duration.ofNanos(redisWaitNanos);
    }

    private void collect(CompletableFuture<RebuildCount> merge, int size) {
        long started = System.nanoTime();
        RebuildCount count = Blocking.await(merge, "write a batch of timers" + (size > 0 ? " of about " + size : ""));
        redisWaitNanos += System.nanoTime() - started;
        total = total.plus(count);
        if (!dryRun) {
            written.accept(count);
        }
    }
}
