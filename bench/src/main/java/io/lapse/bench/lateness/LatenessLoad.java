package io.lapse.bench.lateness;

import java.time.Duration;

/**
 * How the orders of a fire-lateness run push: every {@code cadence} while alive, armed for {@code ttl}, and the share
 * of them that goes silent after the warm-up.
 *
 * @param cadence        how often every order pushes a status while it is alive
 * @param ttl            timer.ttl; must exceed the cadence, or every order would expire between two of its pushes
 * @param silentFraction share of the orders that stop pushing after the warm-up, 0 to 1
 */
public record LatenessLoad(Duration cadence, Duration ttl, double silentFraction) {

    public LatenessLoad {
        if (cadence.isNegative() || cadence.isZero()) {
            throw new IllegalArgumentException("cadence must be positive, got " + cadence);
        }
        if (ttl.compareTo(cadence) <= 0) {
            throw new IllegalArgumentException("ttl (" + ttl + ") must be longer than the cadence (" + cadence
                    + "), or orders that keep pushing would expire too");
        }
        if (!(silentFraction >= 0 && silentFraction <= 1)) {
            throw new IllegalArgumentException("silent fraction must be between 0 and 1, got " + silentFraction);
        }
    }
}
