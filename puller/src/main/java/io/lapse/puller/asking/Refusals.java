package io.lapse.puller.asking;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a refusal about one order from a refusal of upstream as a whole, from evidence: the orders upstream answered
 * (or refused) within {@link #WINDOW} before the refusal, and those within {@link #WINDOW} after it. When, on either
 * side, upstream refused at least {@link #FEWEST_OTHERS_ALIKE} other orders the same way and they are more than half of
 * the other orders it answered there, the refusal is upstream-wide: a new API version that refuses every request with
 * 422, a broken deployment or a gateway answering every order 200 with a body that is no status. Either side suffices,
 * so that the refusals at the start of such a window (answers before them, none after) and at its end (none before,
 * answers after) are judged as those in its middle. It is about its order when upstream answered at least {@link
 * #FEWEST_OTHERS_ANSWERED} other orders on each side (OK or NOT_FOUND): it refused this one among orders it answers.
 * Between the two the evidence is thin (a quiet time, or a puller that sees a fraction of the pulls while another
 * instance is stopped: the chaos run's garbage windows were taken for refusals of one order each, and gave them up),
 * and the refusal waits, UNANSWERED, to be asked again after {@code upstream.circuit-open} like a parked pull, until
 * the order has been refused on thin evidence, with no answer between, for {@code upstream.refusal-patience}: then it
 * is about the order. A window of garbage is over by then, and the order answered. Taking a refusal of one order for an
 * upstream-wide one costs a wait and a few requests, whereas the converse gives the order up: when in doubt, wait. So a
 * refusal waits {@link #WINDOW} for the requests after it before it is judged: then it is FAILED, reported once, taken
 * as an outage ({@code onUpstreamWide} opens the circuit), or asked again. Safe to use from any thread.
 */
final class Refusals {

    private static final Logger log = LoggerFactory.getLogger(Refusals.class);

    /** How long before and after a refusal the answers to other orders count as its evidence. */
    static final Duration WINDOW = Duration.ofSeconds(5);
    /**
     * The fewest other orders refused alike, on one side of a refusal, that make it upstream-wide: two orders refused
     * alike at a quiet time can each be about themselves; three with no other order answered is upstream refusing
     * everyone.
     */
    static final int FEWEST_OTHERS_ALIKE = 2;
    /**
     * The fewest other orders upstream answered (OK or NOT_FOUND) on each side of a refusal that make it about its
     * order at once: one answer can slip in at the edge of a window of garbage, two on each side are upstream
     * answering.
     */
    static final int FEWEST_OTHERS_ANSWERED = 2;
    /**
     * How long the first refusal of an order on thin evidence is remembered, unless upstream answers the order: its
     * next refusals come after a wait on the parked topic, which may be long behind a storm's pulls.
     */
    static final Duration THIN_MEMORY = Duration.ofMinutes(10);

    private static final long WINDOW_NANOS = WINDOW.toNanos();
    private static final long THIN_MEMORY_NANOS = THIN_MEMORY.toNanos();

    /** One order upstream answered: {@code refusal} says how it refused, null when it did not. */
    private record Answer(long at, String orderId, String refusal) {}

    /**
     * What upstream answered on one side of a refusal: the other orders, those of them it refused alike, and those it
     * answered (OK or NOT_FOUND).
     */
    private record Side(Set<String> asked, Set<String> alike, Set<String> answered) {
        Side() {
            this(new HashSet<>(), new HashSet<>(), new HashSet<>());
        }

        boolean refusedMost() {
            return alike.size() >= FEWEST_OTHERS_ALIKE && 2 * alike.size() > asked.size();
        }

        boolean answeredOthers() {
            return answered.size() >= FEWEST_OTHERS_ANSWERED;
        }
    }

    private final Deque<Answer> answers = new ArrayDeque<>();
    /** Orders refused on thin evidence and not answered since, oldest first: when first refused so (nanos). */
    private final Map<String, Long> refusedOnThinEvidence = new LinkedHashMap<>();

    private final LongSupplier nanoTime;
    /**
     * How long an order is refused on thin evidence, asked again after each refusal, before its refusal is about it
     * ({@code upstream.refusal-patience}). The requests that costs, with no answer to another order: one, then one
     * every {@link #WINDOW} + {@code upstream.circuit-open} until the patience is over; 4 at the defaults (20 s, 2 s).
     */
    private final Duration thinPatience;

    private final Executor afterWindow;
    private final Consumer<String> onUpstreamWide;

    /**
     * @param thinPatience   {@code upstream.refusal-patience}
     * @param afterWindow    runs a judgment once the window after its refusal has passed
     * @param onUpstreamWide told why, when a refusal is judged upstream-wide
     */
    Refusals(LongSupplier nanoTime, Duration thinPatience, Executor afterWindow, Consumer<String> onUpstreamWide) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.thinPatience = Objects.requireNonNull(thinPatience, "thinPatience");
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
        synchronized (this) {
            refusedOnThinEvidence.remove(orderId);
        }
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
            if (before.answeredOthers() && after.answeredOthers()) {
                return refused.aboutTheOrder();
            }
            long refusedFor = refusedOnThinEvidenceFor(refusal);
            return refusedFor >= thinPatience.toNanos()
                    ? refused.aboutTheOrder()
                    : askAgain(refusal, refusedFor, before, after);
        }
        String why =
                "upstream " + refused.refusal() + " for " + evidence.alike().size() + " of the "
                        + evidence.asked().size() + " other orders it answered in the " + WINDOW.toSeconds() + " s "
                        + (evidence == before ? "up to" : "from") + " its refusal of order " + refusal.orderId()
                        + ": a refusal of every order, not of one";
        onUpstreamWide.accept(why);
        return PullOutcome.unanswered(why);
    }

    /**
     * How long the order has been refused on thin evidence, with no answer between, this refusal included (0 for the
     * first): once that is the patience, each refusal of it is about it, until upstream answers it.
     */
    private synchronized long refusedOnThinEvidenceFor(Answer refusal) {
        long now = refusal.at();
        for (Iterator<Long> since = refusedOnThinEvidence.values().iterator(); since.hasNext(); ) {
            if (now - since.next() <= THIN_MEMORY_NANOS) {
                break;
            }
            since.remove();
        }
        return now - refusedOnThinEvidence.computeIfAbsent(refusal.orderId(), order -> now);
    }

    private PullOutcome askAgain(Answer refusal, long refusedFor, Side before, Side after) {
        String why = "upstream " + refusal.refusal() + " for order " + refusal.orderId()
                + ", and answered " + before.answered().size() + " other orders in the " + WINDOW.toSeconds()
                + " s up to it and " + after.answered().size() + " from it: too little evidence that it refuses this"
                + " order alone (refused so for " + TimeUnit.NANOSECONDS.toSeconds(refusedFor) + " of the "
                + thinPatience.toSeconds()
                + " s of upstream.refusal-patience), asked again after upstream.circuit-open";
        // rare (few orders asked), and what a chaos run or on-call needs to tell such a wait from an outage
        log.info(why);
        return PullOutcome.unanswered(why);
    }

    private static void count(Answer answer, Answer refusal, Side side) {
        side.asked().add(answer.orderId());
        if (answer.refusal() == null) {
            side.answered().add(answer.orderId());
        } else if (refusal.refusal().equals(answer.refusal())) {
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
