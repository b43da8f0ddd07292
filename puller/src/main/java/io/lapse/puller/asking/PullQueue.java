package io.lapse.puller.asking;

import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.bulkhead.ThreadPoolBulkhead;
import io.lapse.event.TimerExpired;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The pulls waiting for a pull thread, taken those upstream was asked least for first (a pull back from waiting for
 * upstream goes after the pulls not asked yet, so that orders upstream keeps failing cannot take every request, nor
 * every probe of an open circuit, from the others), then earliest silence first: by the expiry's {@code lastSeen},
 * then its deadline, whatever partition or poll they came from. The bulkhead's own queue runs tasks in the order they came, so
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
 *
 * <p>Pulls that may go {@link Together} (first pulls, while upstream takes bulk requests) go so whenever a thread finds
 * at least two of them waiting: it takes the one it would have taken and then the earliest silences among them, up to
 * {@link Together#most()}, and asks for them in one request. At most {@code mostTogetherAtOnce} such requests are in
 * flight; while they all are, threads take only the pulls that go alone, and the others wait for one to end, which
 * gathers them into the next. Whatever a request together did not answer waits again, to go alone.
 */
final class PullQueue {

    private static final Executor RESUBMIT = CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS);

    /** Asks upstream for several waiting pulls in one request. */
    interface Together {
        /** Never: every pull goes alone. */
        Together NEVER = new Together() {
            @Override
            public int most() {
                return 1;
            }

            @Override
            public List<PullOutcome> pull(List<Pull> pulls) {
                throw new UnsupportedOperationException("pulls go alone");
            }
        };

        /** How many waiting pulls one request may take now; below 2, every pull goes alone. */
        int most();

        /**
         * @return the pulls' outcomes, in the order given; null for a pull to be asked alone
         * @throws CancellationException when the puller closes meanwhile
         */
        List<PullOutcome> pull(List<Pull> pulls);
    }

    /**
     * A pull waiting for a thread; {@code asked} is how often upstream was asked for it when it came (a pull is not
     * asked while it waits), {@code arrival} orders arrivals and tells two waiting pulls apart, {@code arrivedAt} is
     * when it came (ms); {@code alone} asks for it alone; {@code together} when it may go with others.
     */
    private record Waiting(
            Pull pull,
            int asked,
            long arrival,
            long arrivedAt,
            Callable<PullOutcome> alone,
            CompletableFuture<PullOutcome> outcome,
            boolean together) {
        Waiting {
            Objects.requireNonNull(pull, "pull");
            Objects.requireNonNull(alone, "alone");
            Objects.requireNonNull(outcome, "outcome");
        }

        TimerExpired expiry() {
            return pull.expiry();
        }

        Waiting goingAlone() {
            return new Waiting(pull, pull.asked(), arrival, arrivedAt, alone, outcome, false);
        }
    }

    private static final Comparator<Waiting> BY_SILENCE = Comparator.comparingInt(Waiting::asked)
            .thenComparing(Waiting::expiry, Pull.EARLIEST_SILENCE_FIRST)
            .thenComparingLong(Waiting::arrival);
    private static final Comparator<Waiting> BY_ARRIVAL = Comparator.comparingLong(Waiting::arrival);

    private final ThreadPoolBulkhead pullThreads;
    private final long patienceMillis;
    /** Tasks waiting for a thread the bulkhead holds at once: its queue (a thread that runs one took it out). */
    private final int mostTasks;

    private final Clock clock;
    private final BooleanSupplier running;
    private final Together together;
    private final int mostTogetherAtOnce;
    private final TreeSet<Waiting> bySilence = new TreeSet<>(BY_SILENCE);
    private final TreeSet<Waiting> byArrival = new TreeSet<>(BY_ARRIVAL);
    /** The waiting pulls that go alone, earliest silence first. */
    private final TreeSet<Waiting> aloneBySilence = new TreeSet<>(BY_SILENCE);

    private long arrivals;
    /** Tasks handed to the bulkhead that have not taken a pull yet: never more than the pulls waiting. */
    private int tasksHandedIn;
    /** Requests for pulls together in flight. */
    private int togetherInFlight;

    /**
     * Every pull alone.
     *
     * @param patience how long a pull waits, at most, while pulls of earlier silences go before it
     * @param running  false once the puller closes: then a pull the bulkhead refuses is abandoned
     */
    PullQueue(ThreadPoolBulkhead pullThreads, Duration patience, Clock clock, BooleanSupplier running) {
        this(pullThreads, patience, clock, running, Together.NEVER, 1);
    }

    /**
     * @param together           asks for pulls together
     * @param mostTogetherAtOnce how many requests together may be in flight at once
     */
    PullQueue(
            ThreadPoolBulkhead pullThreads,
            Duration patience,
            Clock clock,
            BooleanSupplier running,
            Together together,
            int mostTogetherAtOnce) {
        if (patience.isNegative() || patience.isZero()) {
            throw new IllegalArgumentException("patience must be positive, got " + patience);
        }
        if (mostTogetherAtOnce < 1) {
            throw new IllegalArgumentException("mostTogetherAtOnce must be at least 1, got " + mostTogetherAtOnce);
        }
        this.pullThreads = Objects.requireNonNull(pullThreads, "pullThreads");
        this.patienceMillis = patience.toMillis();
        this.mostTasks = Math.max(1, pullThreads.getBulkheadConfig().getQueueCapacity());
        this.clock = Objects.requireNonNull(clock, "clock");
        this.running = Objects.requireNonNull(running, "running");
        this.together = Objects.requireNonNull(together, "together");
        this.mostTogetherAtOnce = mostTogetherAtOnce;
    }

    /**
     * A pull that goes alone.
     *
     * @return completes with the pull's outcome once a pull thread ran it, or exceptionally as the pull threw
     */
    CompletableFuture<PullOutcome> submit(Pull pull, Callable<PullOutcome> alone) {
        return submit(pull, alone, false);
    }

    /**
     * @param alone         asks for the pull alone
     * @param mayGoTogether whether it may rather go with others, in one request ({@link Together})
     * @return completes with the pull's outcome once a pull thread ran it, or exceptionally as the pull threw
     */
    CompletableFuture<PullOutcome> submit(Pull pull, Callable<PullOutcome> alone, boolean mayGoTogether) {
        CompletableFuture<PullOutcome> outcome = new CompletableFuture<>();
        synchronized (this) {
            add(new Waiting(pull, pull.asked(), arrivals++, clock.millis(), alone, outcome, mayGoTogether));
        }
        handInTasks();
        return outcome;
    }

    private void add(Waiting waiting) {
        bySilence.add(waiting);
        byArrival.add(waiting);
        if (!waiting.together()) {
            aloneBySilence.add(waiting);
        }
    }

    private void remove(Waiting waiting) {
        bySilence.remove(waiting);
        byArrival.remove(waiting);
        if (!waiting.together()) {
            aloneBySilence.remove(waiting);
        }
    }

    /**
     * One task per pull a thread can take, up to what the bulkhead holds: more pulls may wait here than the bulkhead
     * has room for, and each task takes the earliest when a thread runs it, so the order covers everything waiting.
     */
    private void handInTasks() {
        while (true) {
            synchronized (this) {
                if (tasksHandedIn >= tasksWanted()) {
                    return;
                }
                tasksHandedIn++;
            }
            offerThread();
        }
    }

    /**
     * A task per waiting pull; but while pulls go together, one per request together that may still go out, and one
     * per pull that goes alone. Never none while pulls wait and no request together is in flight to hand in more.
     */
    private int tasksWanted() {
        int waiting = byArrival.size();
        int most = together.most();
        int mayGoTogether = waiting - aloneBySilence.size();
        if (most < 2 || mayGoTogether < 2) {
            return Math.min(waiting, mostTasks);
        }
        int requests = Math.min(mostTogetherAtOnce - togetherInFlight, (mayGoTogether + most - 1) / most);
        return Math.min(aloneBySilence.size() + Math.max(0, requests), mostTasks);
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
        List<Waiting> next = takeNext();
        if (next.isEmpty()) {
            return;
        }
        if (next.size() == 1) {
            Waiting alone = next.get(0);
            try {
                alone.outcome().complete(alone.alone().call());
            } catch (Throwable e) {
                alone.outcome().completeExceptionally(e);
            }
        } else {
            runTogether(next);
        }
        handInTasks();
    }

    /** The pull a thread runs next, or the pulls it asks for together; none when it should take nothing now. */
    private synchronized List<Waiting> takeNext() {
        tasksHandedIn--;
        if (byArrival.isEmpty()) {
            return List.of();
        }
        Waiting longest = byArrival.first();
        Waiting next = clock.millis() - longest.arrivedAt() >= patienceMillis ? longest : bySilence.first();
        int most = together.most();
        if (next.together() && most >= 2 && byArrival.size() - aloneBySilence.size() >= 2) {
            if (togetherInFlight < mostTogetherAtOnce) {
                List<Waiting> gathered = gather(next, most);
                gathered.forEach(this::remove);
                togetherInFlight++;
                return gathered;
            }
            // as many requests together are in flight as may be: their end gathers this one into the next
            next = aloneBySilence.isEmpty() ? null : aloneBySilence.first();
            if (next == null) {
                return List.of();
            }
        }
        remove(next);
        return List.of(next);
    }

    /** {@code first}, then the earliest silences of the others that may go together, up to {@code most}. */
    private List<Waiting> gather(Waiting first, int most) {
        List<Waiting> gathered = new ArrayList<>(most);
        gathered.add(first);
        for (Iterator<Waiting> it = bySilence.iterator(); it.hasNext() && gathered.size() < most; ) {
            Waiting waiting = it.next();
            if (waiting.together() && waiting != first) {
                gathered.add(waiting);
            }
        }
        return gathered;
    }

    private void runTogether(List<Waiting> gathered) {
        List<Pull> pulls = new ArrayList<>(gathered.size());
        for (Waiting waiting : gathered) {
            pulls.add(waiting.pull());
        }
        List<PullOutcome> outcomes;
        try {
            outcomes = together.pull(pulls);
            if (outcomes.size() != gathered.size()) {
                throw new IllegalStateException(
                        outcomes.size() + " outcomes for " + gathered.size() + " pulls asked for together");
            }
        } catch (Throwable e) {
            synchronized (this) {
                togetherInFlight--;
            }
            gathered.forEach(waiting -> waiting.outcome().completeExceptionally(e));
            return;
        }
        List<Waiting> alone = new ArrayList<>();
        for (int i = 0; i < gathered.size(); i++) {
            PullOutcome outcome = outcomes.get(i);
            if (outcome == null) {
                alone.add(gathered.get(i).goingAlone());
            } else {
                gathered.get(i).outcome().complete(outcome);
            }
        }
        synchronized (this) {
            togetherInFlight--;
            alone.forEach(this::add);
        }
    }

    /** The puller closes and the bulkhead took no task for one waiting pull: that one pull is left unanswered. */
    private void abandonNewest() {
        Waiting newest;
        synchronized (this) {
            tasksHandedIn--;
            newest = byArrival.isEmpty() ? null : byArrival.last();
            if (newest != null) {
                remove(newest);
            }
        }
        if (newest != null) {
            newest.outcome()
                    .completeExceptionally(new CancellationException(
                            "puller closing: pull of order " + newest.expiry().orderId() + " abandoned"));
        }
    }
}
