package io.lapse.puller.asking;

import io.lapse.config.ConfigKeys;
import io.lapse.config.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pulls that go to upstream together, in one bulk request ({@code upstream.bulk-path}), and whether they may now: never
 * when upstream offers no bulk requests, and not for {@link #OFF_FOR} after upstream refused one as a whole (a 4xx
 * other than 401, 403, 407, 408 and 429, or a 200 that is no bulk answer), said once in the log. What a bulk answer
 * does not vouch for, and the orders of a refused request, are pulled alone, by the single pull's rules, so a pull is
 * never FAILED on account of the bulk endpoint. The orders of a request upstream did not answer wait, parked, like a
 * single pull upstream did not answer: asking each alone as well would ask upstream for them again while it is
 * overloaded.
 */
final class BulkPulls implements PullQueue.Together {

    private static final Logger log = LoggerFactory.getLogger(BulkPulls.class);

    /** How long bulk requests stay off after upstream refused one. */
    static final Duration OFF_FOR = Duration.ofMinutes(1);

    /** Asks upstream for several orders in one request. */
    @FunctionalInterface
    interface Asking {
        /** @throws CancellationException when the puller closes meanwhile */
        UpstreamBulk.Reply ask(List<Pull> pulls) throws InterruptedException;
    }

    private final Asking upstream;
    private final int most;
    private final String where;
    private final UpstreamMetrics metrics;
    private final LongSupplier nanos;

    /** System.nanoTime() until which bulk requests are off; meaningful while {@link #off} */
    private volatile long offUntil;

    private volatile boolean off;
    /** Why upstream last refused a bulk request, once logged; null before the first refusal. */
    private String refusedFor;

    /**
     * @param upstream asks, or null when upstream offers no bulk requests
     * @param most     the most orders in one request
     * @param where    the bulk endpoint, for the log
     */
    BulkPulls(Asking upstream, int most, String where, UpstreamMetrics metrics, LongSupplier nanos) {
        if (upstream != null && most < 2) {
            throw new IllegalArgumentException("a bulk request asks for at least 2 orders, not " + most);
        }
        this.upstream = upstream;
        this.most = most;
        this.where = where;
        this.metrics = metrics;
        this.nanos = nanos;
        metrics.watchBulk(() -> off && isOff() ? 1 : 0);
    }

    /** Upstream answers single pulls only. */
    static BulkPulls never(UpstreamMetrics metrics) {
        return new BulkPulls(null, 1, "", metrics, System::nanoTime);
    }

    /** @return 1 while pulls go alone, else the most orders in one request */
    @Override
    public int most() {
        return upstream == null || (off && isOff()) ? 1 : most;
    }

    private boolean isOff() {
        return nanos.getAsLong() - offUntil < 0;
    }

    /**
     * @return each expiry's outcome, in the order given; null for one to be pulled alone
     * @throws CancellationException when the puller closes meanwhile
     */
    @Override
    public List<PullOutcome> pull(List<Pull> pulls) {
        // two expiries of one order go in one request: the first asks, and the other is answered alike
        Set<String> distinct = new HashSet<>();
        List<Pull> asked = new ArrayList<>(pulls.size());
        for (Pull pull : pulls) {
            if (distinct.add(pull.orderId())) {
                asked.add(pull);
            }
        }
        int orders = asked.size();
        UpstreamBulk.Reply reply;
        try {
            metrics.bulkRequest(orders);
            reply = upstream.ask(asked);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw abandoned(orders);
        } catch (CancellationException e) {
            throw e;
        } catch (RuntimeException e) {
            log.error("a bulk request for {} orders failed unexpectedly; they wait, parked", orders, e);
            reply = UpstreamBulk.Reply.unanswered("puller error: " + e);
        }
        // an interrupted retry wait ends the request early: the puller is closing
        if (Thread.currentThread().isInterrupted()) {
            throw abandoned(orders);
        }
        List<PullOutcome> outcomes = new ArrayList<>(pulls.size());
        if (reply.unanswered() != null) {
            log.debug(
                    "upstream did not answer a bulk request for {} orders ({}); they wait", orders, reply.unanswered());
            PullOutcome waits = PullOutcome.unanswered(reply.unanswered());
            pulls.forEach(pull -> outcomes.add(waits));
            return outcomes;
        }
        if (reply.refused() != null) {
            turnOff(reply.refused());
        } else {
            answered();
        }
        int alone = 0;
        for (Pull pull : pulls) {
            PullOutcome outcome = reply.answered().get(pull.orderId());
            outcomes.add(outcome);
            if (outcome == null) {
                alone++;
            }
        }
        metrics.pulledAlone(alone);
        return outcomes;
    }

    private synchronized void turnOff(String why) {
        offUntil = nanos.getAsLong() + OFF_FOR.toNanos();
        off = true;
        if (!why.equals(refusedFor)) {
            refusedFor = why;
            log.warn(
                    "upstream refused a bulk request to {}: {}. Bulk requests are off for {} (then tried again) and"
                            + " every pull goes alone meanwhile; set {} to a path upstream serves, or to nothing to ask"
                            + " for single pulls only",
                    where,
                    why,
                    Durations.format(OFF_FOR),
                    ConfigKeys.UPSTREAM_BULK_PATH.name());
        } else {
            log.debug("upstream refused a bulk request again: {}; bulk requests off for {}", why, OFF_FOR);
        }
    }

    private void answered() {
        if (off) {
            synchronized (this) {
                if (off) {
                    off = false;
                    log.info("upstream answered a bulk request to {}: bulk requests are on again", where);
                }
            }
        }
    }

    private static CancellationException abandoned(int orders) {
        return new CancellationException("puller closing: bulk request for " + orders + " orders abandoned");
    }
}
