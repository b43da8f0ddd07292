package io.lapse.bench.peers.system;

import java.util.Optional;

/**
 * One design under test, started on its own fresh server, which closing it stops. The driver re-arms entities through it; it reports every
 * fire it sees to the {@link Fires} it was started with, at the moment the application would learn of it.
 */
public interface PeerSystem extends AutoCloseable {

    /**
     * Re-arms {@code count} entities so that each fires at {@code deadlineMillis} unless re-armed again. It may
     * return before the server applied them, but must hold the caller back once too much is in flight, so that a
     * design that cannot keep up shows as a driver falling behind.
     */
    void rearm(int[] entities, int count, long deadlineMillis) throws InterruptedException;

    /** Bytes the system's store holds now (Redis used_memory, for instance). */
    long memoryBytes() throws Exception;

    /** Where the lateness went, for a system that can tell (Lapse); empty for one whose fire is all the benchmark sees. */
    default Optional<LatenessParts> latenessParts() {
        return Optional.empty();
    }

    /** Seconds of CPU the system's own server processes have used so far. */
    double serverCpuSeconds();

    @Override
    void close();
}
