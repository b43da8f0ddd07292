package io.lapse.compensator.mirror;

import java.util.Map;
import java.util.function.Consumer;

/** Somewhere the compensator's mirror can be read from whole: its local stores, or the changelog in Kafka. */
public interface MirrorSource {

    /**
     * Hands every order of the mirror to {@code batch}, a bounded number at a time, each order once.
     *
     * @param progress told after each batch how many units of {@link #size()} are done
     */
    void read(Consumer<Map<String, OrderState>> batch, Progress progress);

    /** How much there is to read, in the units progress counts; an estimate made before reading. */
    long size();

    @FunctionalInterface
    interface Progress {
        Progress NONE = done -> {};

        void advanced(long done);
    }
}
