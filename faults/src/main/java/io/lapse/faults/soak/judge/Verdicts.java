package io.lapse.faults.soak.judge;

/**
 * What the {@link Judge} has found so far.
 *
 * @param expiries      expiries read from the expired topic
 * @param falseExpiries expiries of an order that pushed again within the ttl before the deadline the expiry names
 * @param revived       expiries of an order after it finished with a terminal push
 * @param silent        orders the generator silenced so far
 * @param fired         silent orders whose first expiry came within the grace after their deadline
 * @param missed        silent orders whose first expiry did not
 * @param pending       silent orders whose deadline plus grace has not passed yet
 */
public record Verdicts(
        long expiries, long falseExpiries, long revived, long silent, long fired, long missed, long pending) {

    static final Verdicts NONE = new Verdicts(0, 0, 0, 0, 0, 0, 0);

    public Verdicts {
        if (expiries < 0 || falseExpiries < 0 || revived < 0 || fired < 0 || missed < 0 || pending < 0) {
            throw new IllegalArgumentException("negative counts");
        }
        if (fired + missed + pending != silent) {
            throw new IllegalArgumentException(
                    "fired " + fired + " + missed " + missed + " + pending " + pending + " != silent " + silent);
        }
    }
}
