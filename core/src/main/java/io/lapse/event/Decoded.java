package io.lapse.event;

import java.util.function.Supplier;

/**
 * One record as a service reads it: its value (null when the record means nothing to the reader), or the reason it
 * breaks the contract. The one rule every consumer keeps: whatever the bytes, reading a record never throws, so one
 * bad record becomes one dead letter (or one skipped record) and never stops a consumer or loses the offsets behind
 * it.
 *
 * @param rejection why the record cannot be read; null when it could
 */
public record Decoded<T>(T value, String rejection) {

    public Decoded {
        if (value != null && rejection != null) {
            throw new IllegalArgumentException("a record is read or rejected, not both: " + rejection);
        }
    }

    /** @param read reads the record; an {@link InvalidRecordException}, or any other exception, rejects it */
    public static <T> Decoded<T> of(Supplier<T> read) {
        try {
            return new Decoded<>(read.get(), null);
        } catch (InvalidRecordException e) {
            return rejected(e.getMessage());
        } catch (RuntimeException e) {
            return rejected("cannot be read: " + e);
        }
    }

    public static <T> Decoded<T> rejected(String reason) {
        return new Decoded<>(null, reason == null ? "rejected" : reason);
    }

    public boolean isRejected() {
        return rejection != null;
    }
}
