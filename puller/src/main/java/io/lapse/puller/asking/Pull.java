package io.lapse.puller.asking;

import io.lapse.event.TimerExpired;
import java.util.Comparator;
import java.util.Objects;

/**
 * One expiry on its way to upstream, on one visit (read from the expired topic, or from the parked topic after it
 * waited): the requests upstream got for it, on this visit and before, and whether this visit took its order's rate
 * permit yet. Upstream is asked at most {@code upstream.max-attempts} times a visit; a visit takes one permit however
 * many requests ask for the order (a bulk request and its retry, or then a request alone), so that retries do not
 * use up the rate limit of orders not asked yet; and every request after an expiry's first waits twice
 * {@code upstream.timeout} for its answer, since the first found upstream slow or failing. Used by one pull thread at
 * a time.
 */
public final class Pull {

    /** The order pulls go in: earliest silence first, then the expiry's deadline (the earlier attempt first). */
    public static final Comparator<TimerExpired> EARLIEST_SILENCE_FIRST =
            Comparator.comparingLong(TimerExpired::lastSeen).thenComparingLong(TimerExpired::deadline);

    private final TimerExpired expiry;
    private final int askedBefore;
    private int asked;
    private boolean permitted;

    /** @param askedBefore requests upstream got for the expiry on its earlier visits */
    public Pull(TimerExpired expiry, int askedBefore) {
        if (askedBefore < 0) {
            throw new IllegalArgumentException("askedBefore must not be negative, got " + askedBefore);
        }
        this.expiry = Objects.requireNonNull(expiry, "expiry");
        this.askedBefore = askedBefore;
    }

    public TimerExpired expiry() {
        return expiry;
    }

    String orderId() {
        return expiry.orderId();
    }

    /** Requests upstream got for the expiry, on every visit. */
    public int asked() {
        return askedBefore + asked;
    }

    /** Requests upstream got for the expiry on this visit. */
    int askedNow() {
        return asked;
    }

    /** Whether the next request for this order takes a rate permit: the visit's first does. */
    boolean needsPermit() {
        return !permitted;
    }

    void permitted() {
        permitted = true;
    }

    /** A request for the order goes out; it waits the longer timeout unless it is the expiry's first. */
    boolean asking() {
        asked++;
        return asked() > 1;
    }
}
