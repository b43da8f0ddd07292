package io.lapse.store;

import java.util.Optional;

/** A timer store listening for shards that may be due; closing stops it. */
public interface Listening extends AutoCloseable {

    /** Why what it hears cannot be trusted to wake the timer, for readiness; empty while it can. */
    default Optional<String> problem() {
        return Optional.empty();
    }

    @Override
    void close();
}
