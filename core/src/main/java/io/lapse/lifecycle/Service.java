package io.lapse.lifecycle;

/** A part of Lapse with an explicit life: started once, closed once (closing again does nothing). */
public interface Service extends AutoCloseable {

    String name();

    void start();

    /** Whether the service is doing its work now: connected, assigned, not stuck in failures. */
    boolean isReady();

    @Override
    void close();
}
