package io.lapse.faults.observe;

/** What the suite read back from Lapse's topics, reduced to what the tally needs. */
public final class Seen {

    private Seen() {}

    /** Something Lapse or the upstream wrote about one order. */
    interface OfOrder {
        String orderId();
    }

    /** A status push in Kafka: the order's event time, and whether it ended the order. */
    record Push(String orderId, long ts, boolean terminal) implements OfOrder {}

    /**
     * A TimerExpired.
     *
     * @param appendedAt when Kafka appended it (the expired topic is created with LogAppendTime)
     */
    record Expiry(String orderId, long deadline, int attempt, long appendedAt) implements OfOrder {

        Key key() {
            return new Key(orderId, deadline, attempt);
        }
    }

    /** A PullResult, by the expiry it answers, with its outcome (OK, NOT_FOUND, FAILED, SKIPPED). */
    public record Pull(String orderId, long deadline, int attempt, long appendedAt, String outcome) implements OfOrder {

        Key key() {
            return new Key(orderId, deadline, attempt);
        }
    }

    /** A DeadLetter, by the record it stands for. */
    public record DeadLetter(RecordRef source, String key, long writtenAt) {}

    /** (orderId, deadline, attempt): what identifies an expiry, and what its pull result refers to. */
    record Key(String orderId, long deadline, int attempt) {}
}
