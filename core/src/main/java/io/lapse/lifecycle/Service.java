package io.lapse.lifecycle;

/** A part of Lapse with an explicit life: started once, closed once (closing again does nothing). */
public interface Service extends AutoCloseable {

    String name();

    void start();

    /** Whether the service is doing its work now: connected, assigned, not stuck in failures. */
    boolean isReady();

    /**
     * False when the service cannot recover by itself (a thread it needs has died or is stuck) and the process should
     * be restarted. Its {@link ServiceLoop}s answer for themselves; a service with other threads (Kafka Streams)
     * says here whether they live.
     */
    default boolean isAlive() {
        return true;
    }

    @Override
    void close();
}
