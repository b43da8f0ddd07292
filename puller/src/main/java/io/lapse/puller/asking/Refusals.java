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
 * Tells a refusal about one order from a refusal of upstream as a whole, from evidence: the orders upstream answered
 * (or refused) within {@link #WINDOW} before the refusal, and those within {@link #WINDOW} after it. When, on either
 * side, upstream refused at least {@link #FEWEST_OTHERS_ALIKE} other orders the same way and they are more than half
 * of the other orders it answered there, the refusal is upstream-wide: a new API version that refuses every request
 * with 422, a broken deployment or a gateway answering every order 200 with a body that is no status. Otherwise it is
 * about its order. Either side suffices, so that the refusals at the start of such a window (answers before them, none
 * after) and at its end (none before, answers after) are judged as those in its middle; and a few orders suffice,
 * since at a quiet time the puller asks upstream about one order a second or fewer (the chaos run's garbage windows
 * were taken for refusals of one order each, two orders in a window of 2 s, and gave them up). Taking a refusal of one
 * order for an upstream-wide one costs a wait of {@code upstream.circuit-open} and a second request, whereas the
 * converse gives the order up: when in doubt, wait. So a refusal waits {@link #WINDOW} for the requests after it
 * before it is judged: then it is FAILED, reported once, or taken as an outage ({@code onUpstreamWide} opens the
 * circuit) and the pull waits for upstream like any other. Safe to use from any thread.
 */
final class Refusals {

    /** How long before and after a refusal the answers to other orders count as its evidence. */
    static final Duration WINDOW = Duration.ofSeconds(5);
    /**
     * The fewest other orders refused alike, on one side of a refusal, that make it upstream-wide: two orders refused
     * alike at a quiet time can each be about themselves; three with no other order answered is upstream refusing
     * everyone.
     */
    static final int FEWEST_OTHERS_ALIKE = 2;

    private static final long WINDOW_NANOS = WINDOW.toNanos();

    /** One order upstream answered: {@code refusal} says how it refused, null when it did not. */
    private record Answer(long at, String orderId, String refusal) {}

    /** What upstream answered on one side of a refusal: the other orders, and those of them it refused alike. */
    private record Side(Set<String> asked, Set<String> alike) {
        Side() {
            this(new HashSet<>(), new HashSet<>());
        }

        boolean refusedMost() {
            return alike.size() >= FEWEST_OTHERS_ALIKE && 2 * alike.size() > asked.size();
        }
    }

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
        Side before = new Side();
        Side after = new Side();
        synchronized (this) {
            for (Answer answer : answers) {
                if (answer.orderId().equals(refusal.orderId())) {
                    continue; // evidence of upstream as a whole comes from the other orders
                }
                long since = answer.at() - refusal.at();
                if (since >= -WINDOW_NANOS && since <= 0) {
                    count(answer, refusal, before);
                }
                if (since >= 0 && since <= WINDOW_NANOS) {
                    count(answer, refusal, after);
                }
            }
        }
        Side evidence = before.refusedMost() ? before : after.refusedMost() ? after : null;
        if (evidence == null) {
            return refused.aboutTheOrder();
        }
        String why =
                "upstream " + refused.refusal() + " for " + evidence.alike().size() + " of the "
                        + evidence.asked().size() + " other orders it answered in the " + WINDOW.toSeconds() + " s "
                        + (evidence == before ? "up to" : "from") + " its refusal of order " + refusal.orderId()
                        + ": a refusal of every order, not of one";
        onUpstreamWide.accept(why);
        return PullOutcome.unanswered(why);
    }

    private static void count(Answer answer, Answer refusal, Side side) {
        side.asked().add(answer.orderId());
        if (refusal.refusal().equals(answer.refusal())) {
            side.alike().add(answer.orderId());
        }
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
