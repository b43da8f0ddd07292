package io.lapse.devstack;

import java.time.Duration;

/** Pause between readiness polls; an interrupt aborts the start instead of being swallowed. */
final class Sleep {

    private Sleep() {}

    static void briefly(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for a server to become ready", e);
        }
    }
}
