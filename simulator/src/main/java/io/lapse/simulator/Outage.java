package io.lapse.simulator;

import java.time.Duration;

/**
 * A window in which the simulated API answers every status request alike: 503, or nothing at all until the window
 * ends (a stall, as a hung upstream or a dropped network would do).
 *
 * @param after  from the start of the API (in settings) or from now (at run time)
 * @param length zero for no outage
 */
public record Outage(Duration after, Duration length, Kind kind) {

    public enum Kind {
        /** Every request is answered 503. */
        ERRORS,
        /** Every request is answered only when the window ends. */
        STALL
    }

    public Outage {
        if (after == null || after.isNegative() || length == null || length.isNegative()) {
            throw new IllegalArgumentException(
                    "an outage needs a start and a length of zero or more, got after " + after + ", length " + length);
        }
        if (kind == null) {
            throw new IllegalArgumentException("an outage needs a kind: ERRORS or STALL");
        }
    }

    public static Outage none() {
        return new Outage(Duration.ZERO, Duration.ZERO, Kind.ERRORS);
    }

    /** An outage beginning at once. */
    public static Outage of(Duration length, Kind kind) {
        return new Outage(Duration.ZERO, length, kind);
    }
}
