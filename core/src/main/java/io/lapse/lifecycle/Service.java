package io.lapse.lifecycle;

import java.util.Optional;

/** A part of Lapse with an explicit life: started once, closed once (closing again does nothing). */
public interface Service extends AutoCloseable {

    String name();

    void start();

    /** Whether the service is doing its work now: connected, assigned, not stuck in failures. */
    boolean isReady();

    /**
     * Why the service cannot recover by itself (a thread it needs has died or is stuck), so that the process should be
     * restarted; empty while it lives. {@link ServiceLoop#livenessProblemOf(ServiceLoop...)} says it for its loops.
     */
    Optional<String> livenessProblem();

    @Override
    void close();
}
