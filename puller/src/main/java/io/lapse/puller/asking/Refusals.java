package io.lapse.puller.asking;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Tells a refusal about one order from a refusal of upstream as a whole, from evidence: upstream refuses an order alone
 * when other orders asked around the same time were answered (or refused otherwise); it refuses upstream-wide when,
 * within {@link #WINDOW} before and after, it refused at least {@link #MOST_ORDERS_AT_LEAST} orders the same way and
 * they are more than half of the orders it answered (a new API version that refuses every request with 422, say). So
 * a refusal waits {@link #WINDOW} for the requests after it before it is judged: then it is FAILED, reported once, or
 * taken as an outage ({@code onUpstreamWide} opens the circuit) and the pull waits for upstream like any other. A few
 * orders refused at a quiet time are always about themselves. Safe to use from any thread.
 */
final class Refusals {

    /** How long before and after a refusal the answers to other orders count as its evidence. */
    static final Duration WINDOW = Duration.ofSeconds(2);
    /** The fewest orders refused alike that can make an upstream-wide refusal, as the circuit breaker's fewest calls. */
    static final int MOST_ORDERS_AT_LEAST = 10;

    private static final long WINDOW_NANOS = WINDOW.toNanos();

    /** One order upstream answered: {@code refusal} says how it refused, null when it did not. */
    private record Answer(long at, String orderId, String refusal) {}

    private final Deque<Answer> answers = new ArrayDeque<>();
    private final LongSupplier nanoTime;
    private final Executor afterWindow;
    private final Consumer<String> onUpstreamWide;

    /**
     * @param afterWindow    runs a judgment once the window after its refusal has passed
     * @param onUpstreamWide told why, when a refusal is judged upstream-wide
     */
    Refusals(LongSupplier nanoTime, Executor afterWindow, Consumer<String> onUpstreamWide) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.afterWindow = Objects.requireNonNull(afterWindow, "afterWindow");
        this.onUpstreamWide = Objects.requireNonNull(onUpstreamWide, "onUpstreamWide");
    }

    /** Runs a judgment {@link #WINDOW} after it is asked for. */
    static Executor afterWindow() {
        return CompletableFuture.delayedExecutor(WINDOW.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Upstream answered the order (OK or NOT_FOUND): evidence that it answers. */
    void answered(String orderId) {
        add(new Answer(nanoTime.getAsLong(), orderId, null));
    }

    /**
     * @param refused a REFUSED outcome of the order
     * @return completes once judged: FAILED when the refusal is about the order, else UNANSWERED
     */
    CompletableFuture<PullOutcome> judge(String orderId, PullOutcome refused) {
        if (refused.kind() != PullOutcome.Kind.REFUSED) {
            throw new IllegalArgumentException("only a refusal is judged, not " + refused.kind());
        }
        Answer answer = new Answer(nanoTime.getAsLong(), orderId, refused.refusal());
        add(answer);
        return CompletableFuture.supplyAsync(() -> verdict(answer, refused), afterWindow);
    }

    private PullOutcome verdict(Answer refusal, PullOutcome refused) {
        Set<String> asked = new HashSet<>();
        Set<String> alike = new HashSet<>();
        synchronized (this) {
            for (Answer answer : answers) {
                if (Math.abs(answer.at() - refusal.at()) <= WINDOW_NANOS) {
                    asked.add(answer.orderId());
                    if (refusal.refusal().equals(answer.refusal())) {
                        alike.add(answer.orderId());
                    }
                }
            }
        }
        if (alike.size() < MOST_ORDERS_AT_LEAST || 2 * alike.size() <= asked.size()) {
            return refused.aboutTheOrder();
        }
        String why = "upstream " + refused.refusal() + " for " + alike.size() + " of the " + asked.size()
                + " orders it answered within " + WINDOW.toSeconds() + " s: a refusal of every order, not of one";
        onUpstreamWide.accept(why);
        return PullOutcome.unanswered(why);
    }

    private synchronized void add(Answer answer) {
        answers.addLast(answer);
        // what can still be evidence: the judgments waiting look back a window from their refusal, a window ago (and
        // a little more, since a judgment runs late on a busy machine)
        while (answer.at() - answers.peekFirst().at() > 3 * WINDOW_NANOS) {
            answers.removeFirst();
        }
    }
}
