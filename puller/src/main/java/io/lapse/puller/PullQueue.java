package io.lapse.puller;

import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.bulkhead.ThreadPoolBulkhead;
import io.lapse.event.TimerExpired;
import java.time.Clock;
import java.time.Duration;
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
 * otherwise hold back its commits), the one waiting longest goes next once it has waited {@code patience}. Patience
 * is a time, not a count of pulls that went before: a count is used up within a second by a storm's backlog, and the
 * order then falls back to the order of reading, which {@link EvenReading} keeps level in time across partitions.
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

    /**
     * A pull waiting for a thread; {@code arrival} orders arrivals and tells two waiting pulls apart, {@code arrivedAt}
     * is when it came (ms).
     */
    private record Waiting(
            TimerExpired expiry,
            long arrival,
            long arrivedAt,
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
    private final long patienceMillis;
    /** Tasks waiting for a thread the bulkhead holds at once: its queue (a thread that runs one took it out). */
    private final int mostTasks;

    private final Clock clock;
    private final BooleanSupplier running;
    private final TreeSet<Waiting> bySilence = new TreeSet<>(BY_SILENCE);
    private final TreeSet<Waiting> byArrival = new TreeSet<>(BY_ARRIVAL);
    private long arrivals;
    /** Tasks handed to the bulkhead that have not taken a pull yet: never more than the pulls waiting. */
    private int tasksHandedIn;

    /**
     * @param patience how long a pull waits, at most, while pulls of earlier silences go before it
     * @param running  false once the puller closes: then a pull the bulkhead refuses is abandoned
     */
    PullQueue(ThreadPoolBulkhead pullThreads, Duration patience, Clock clock, BooleanSupplier running) {
        if (patience.isNegative() || patience.isZero()) {
            throw new IllegalArgumentException("patience must be positive, got " + patience);
        }
        this.pullThreads = Objects.requireNonNull(pullThreads, "pullThreads");
        this.patienceMillis = patience.toMillis();
        this.mostTasks = Math.max(1, pullThreads.getBulkheadConfig().getQueueCapacity());
        this.clock = Objects.requireNonNull(clock, "clock");
        this.running = Objects.requireNonNull(running, "running");
    }

    /** @return completes with the pull's outcome once a pull thread ran it, or exceptionally as the pull threw */
    CompletableFuture<PullOutcome> submit(TimerExpired expiry, Callable<PullOutcome> pull) {
        CompletableFuture<PullOutcome> outcome = new CompletableFuture<>();
        synchronized (this) {
            Waiting waiting = new Waiting(expiry, arrivals++, clock.millis(), pull, outcome);
            bySilence.add(waiting);
            byArrival.add(waiting);
        }
        handInTasks();
        return outcome;
    }

    /**
     * One task per waiting pull, up to what the bulkhead holds: more pulls may wait here than the bulkhead has room for,
     * and each task takes the earliest when a thread runs it, so the order covers everything waiting.
     */
    private void handInTasks() {
        while (true) {
            synchronized (this) {
                if (tasksHandedIn >= Math.min(byArrival.size(), mostTasks)) {
                    return;
                }
                tasksHandedIn++;
            }
            offerThread();
        }
    }

    /** Pulls waiting for a thread now. */
    synchronized int waiting() {
        return byArrival.size();
    }

    /** Should the bulkhead be full nonetheless (its threads finish a task before taking the next), a little later. */
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
        handInTasks();
    }

    private synchronized Waiting takeNext() {
        tasksHandedIn--;
        if (byArrival.isEmpty()) {
            return null;
        }
        Waiting longest = byArrival.first();
        Waiting next = clock.millis() - longest.arrivedAt() >= patienceMillis ? longest : bySilence.first();
        bySilence.remove(next);
        byArrival.remove(next);
        return next;
    }

    /** The puller closes and the bulkhead took no task for one waiting pull: that one pull is left unanswered. */
    private void abandonNewest() {
        Waiting newest;
        synchronized (this) {
            tasksHandedIn--;
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
