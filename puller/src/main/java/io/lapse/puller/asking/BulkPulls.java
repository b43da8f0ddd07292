package io.lapse.puller;

import io.lapse.config.ConfigKeys;
import io.lapse.config.Durations;
import io.lapse.event.TimerExpired;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pulls that go to upstream together, in one bulk request ({@code upstream.bulk-path}), and whether they may now: never
 * when upstream offers no bulk requests, and not for {@link #OFF_FOR} after upstream refused one as a whole (a 4xx
 * other than 408 and 429, or a 200 that is no bulk answer), said once in the log. Whatever a bulk request does not
 * answer is pulled alone, by the single pull's rules: the orders of a refused request, of one upstream did not answer
 * after {@code upstream.max-attempts}, and those its answer vouches nothing for. So a pull is never FAILED on account
 * of the bulk endpoint.
 */
final class BulkPulls implements PullQueue.Together {

    private static final Logger log = LoggerFactory.getLogger(BulkPulls.class);

    /** How long bulk requests stay off after upstream refused one. */
    static final Duration OFF_FOR = Duration.ofMinutes(1);

    /** Asks upstream for several orders in one request. */
    @FunctionalInterface
    interface Asking {
        /** @throws CancellationException when the puller closes meanwhile */
        UpstreamBulk.Reply ask(List<String> orderIds) throws InterruptedException;
    }

    private final Asking upstream;
    private final int most;
    private final String where;
    private final PullerMetrics metrics;
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
    BulkPulls(Asking upstream, int most, String where, PullerMetrics metrics, LongSupplier nanos) {
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
    static BulkPulls never(PullerMetrics metrics) {
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
    public List<PullOutcome> pull(List<TimerExpired> expiries) {
        Set<String> distinct = new LinkedHashSet<>();
        for (TimerExpired expiry : expiries) {
            distinct.add(expiry.orderId());
        }
        List<String> orderIds = List.copyOf(distinct);
        UpstreamBulk.Reply reply;
        try {
            metrics.bulkRequest(orderIds.size());
            reply = upstream.ask(orderIds);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw abandoned(orderIds.size());
        } catch (CancellationException e) {
            throw e;
        } catch (RuntimeException e) {
            log.error("a bulk request for {} orders failed unexpectedly; they are pulled alone", orderIds.size(), e);
            reply = UpstreamBulk.Reply.unanswered("puller error: " + e);
        }
        // an interrupted retry wait ends the request early: the puller is closing
        if (Thread.currentThread().isInterrupted()) {
            throw abandoned(orderIds.size());
        }
        if (reply.refused() != null) {
            turnOff(reply.refused());
        } else if (reply.unanswered() != null) {
            log.debug(
                    "upstream did not answer a bulk request for {} orders ({}); they are pulled alone",
                    orderIds.size(),
                    reply.unanswered());
        } else {
            answered();
        }
        List<PullOutcome> outcomes = new ArrayList<>(expiries.size());
        int alone = 0;
        for (TimerExpired expiry : expiries) {
            PullOutcome outcome = reply.answered().get(expiry.orderId());
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
