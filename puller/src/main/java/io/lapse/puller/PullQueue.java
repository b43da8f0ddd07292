package io.lapse.puller;

import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.bulkhead.ThreadPoolBulkhead;
import io.lapse.event.TimerExpired;
import java.util.Comparator;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The pulls waiting for a pull thread, taken earliest silence first: by the expiry's {@code lastSeen}, then its
 * deadline, whatever partition or poll they came from. The bulkhead's own queue runs tasks in the order they came, so
 * each pull handed in puts one task of "run the earliest waiting pull" in it instead of itself: the bulkhead still
 * bounds the pull threads and the queue, and this decides which pull a thread runs. So that a pull whose silence began
 * later is not overtaken for ever while earlier ones keep coming (a partition whose expiries are all younger would
 * otherwise hold back its commits), the one waiting longest goes next once {@code patience} others went since it came.
 *
 * <p>The order holds within what this instance has read: the pulls in flight, up to the bulkhead's threads and queue.
 * Kafka gives each instance its own partitions, and nothing orders pulls across instances: each drains its own
 * partitions at its own rate limit. Since the timer fires in deadline order and orders spread over the partitions by
 * key, every instance's partitions hold the same mix of ages, so across instances the order holds only roughly.
 */
final class PullQueue {

    /** Earliest silence first: the silence's start, then the expiry's deadline (the earlier attempt first). */
    static final Comparator<TimerExpired> EARLIEST_SILENCE_FIRST =
            Comparator.comparingLong(TimerExpired::lastSeen).thenComparingLong(TimerExpired::deadline);

    private static final Executor RESUBMIT = CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS);

    /** A pull waiting for a thread; {@code arrival} orders arrivals and tells two waiting pulls apart. */
    private record Waiting(
            TimerExpired expiry,
            long arrival,
            long takenBefore,
            Callable<PullOutcome> pull,
            CompletableFuture<PullOutcome> outcome) {
        Waiting {
            Objects.requireNonNull(expiry, "expiry");
            Objects.requireNonNull(pull, "pull");
            Objects.requireNonNull(outcome, "outcome");
        }
    }

    private static final Comparator<Waiting> BY_SILENCE =
            Comparator.comparing(Waiting::expiry, EARLIEST_SILENCE_FIRST).thenComparingLong(Waiting::arrival);
    private static final Comparator<Waiting> BY_ARRIVAL = Comparator.comparingLong(Waiting::arrival);

    private final ThreadPoolBulkhead pullThreads;
    private final int patience;
    private final BooleanSupplier running;
    private final TreeSet<Waiting> bySilence = new TreeSet<>(BY_SILENCE);
    private final TreeSet<Waiting> byArrival = new TreeSet<>(BY_ARRIVAL);
    private long arrivals;
    private long taken;

    /**
     * @param patience how many pulls may go before one that waits, at most, once they came after it
     * @param running  false once the puller closes: then a pull the bulkhead refuses is abandoned
     */
    PullQueue(ThreadPoolBulkhead pullThreads, int patience, BooleanSupplier running) {
        if (patience < 1) {
            throw new IllegalArgumentException("patience must be at least 1, got " + patience);
        }
        this.pullThreads = Objects.requireNonNull(pullThreads, "pullThreads");
        this.patience = patience;
        this.running = Objects.requireNonNull(running, "running");
    }

    /** @return completes with the pull's outcome once a pull thread ran it, or exceptionally as the pull threw */
    CompletableFuture<PullOutcome> submit(TimerExpired expiry, Callable<PullOutcome> pull) {
        CompletableFuture<PullOutcome> outcome = new CompletableFuture<>();
        synchronized (this) {
            Waiting waiting = new Waiting(expiry, arrivals++, taken, pull, outcome);
            bySilence.add(waiting);
            byArrival.add(waiting);
        }
        offerThread();
        return outcome;
    }

    /** Pulls waiting for a thread now. */
    synchronized int waiting() {
        return byArrival.size();
    }

    /**
     * One task per pull handed in, so every waiting pull is run by some task. The loop reads only while the bulkhead
     * has room; should it be full nonetheless, the task is handed in again a little later.
     */
    private void offerThread() {
        try {
            pullThreads.submit(this::runNext);
        } catch (BulkheadFullException e) {
            if (running.getAsBoolean()) {
                RESUBMIT.execute(this::offerThread);
            } else {
                abandonNewest();
            }
        }
    }

    private void runNext() {
        Waiting next = takeNext();
        if (next == null) {
            return;
        }
        try {
            next.outcome().complete(next.pull().call());
        } catch (Throwable e) {
            next.outcome().completeExceptionally(e);
        }
    }

    private synchronized Waiting takeNext() {
        if (byArrival.isEmpty()) {
            return null;
        }
        Waiting longest = byArrival.first();
        Waiting next = taken - longest.takenBefore() >= patience ? longest : bySilence.first();
        bySilence.remove(next);
        byArrival.remove(next);
        taken++;
        return next;
    }

    /** The puller closes and the bulkhead took no task for one waiting pull: that one pull is left unanswered. */
    private void abandonNewest() {
        Waiting newest;
        synchronized (this) {
            newest = byArrival.pollLast();
            if (newest != null) {
                bySilence.remove(newest);
            }
        }
        if (newest != null) {
            newest.outcome()
                    .completeExceptionally(new CancellationException(
                            "puller closing: pull of order " + newest.expiry().orderId() + " abandoned"));
        }
    }
}
