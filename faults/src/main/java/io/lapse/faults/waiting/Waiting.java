package io.lapse.faults.waiting;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting for a condition with a timeout, and for the moments of a scenario's timeline. */
public final class Waiting {

    private static final long POLL_MILLIS = 100;

    private Waiting() {}

    /** @return whether the condition held before the timeout */
    public static boolean until(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            sleep(Duration.ofMillis(POLL_MILLIS));
        }
        return true;
    }

    /** @throws IllegalStateException naming {@code what} when the condition did not hold in time */
    public static void require(BooleanSupplier condition, Duration timeout, String what) {
        if (!until(condition, timeout)) {
            throw new IllegalStateException(what + " did not happen within " + timeout.toSeconds() + " s");
        }
    }

    /** Sleeps until the wall clock reads {@code epochMillis}; a fault's duration is part of the scenario. */
    public static void untilTime(long epochMillis) {
        untilTimeOr(epochMillis, () -> {}, () -> false);
    }

    /**
     * Sleeps until the wall clock reads {@code epochMillis} or {@code done} holds, doing {@code meanwhile} every 100 ms.
     *
     * @return when it stopped
     */
    public static long untilTimeOr(long epochMillis, Runnable meanwhile, BooleanSupplier done) {
        for (long left = epochMillis - System.currentTimeMillis();
                left > 0 && !done.getAsBoolean();
                left = epochMillis - System.currentTimeMillis()) {
            meanwhile.run();
            sleep(Duration.ofMillis(Math.min(left, POLL_MILLIS)));
        }
        return System.currentTimeMillis();
    }

    public static void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting", e);
        }
    }
}
