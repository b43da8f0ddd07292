package io.lapse.faults.soak;

/** The soak's own JVM recording its CPU profile, written when closed; {@link #NONE} records nothing. */
@FunctionalInterface
interface JudgeProfile extends AutoCloseable {

    JudgeProfile NONE = () -> {};

    @Override
    void close();
}
