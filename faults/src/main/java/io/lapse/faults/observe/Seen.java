package io.lapse.faults.observe;

/** What the suite and the chaos run read back from Lapse's topics, reduced to what their judges need. */
public final class Seen {

    private Seen() {}

    /** Something Lapse or the upstream wrote about one order. */
    interface OfOrder {
        String orderId();
    }

    /** A status push in Kafka: the order's event time, and whether it ended the order. */
    public record Push(String orderId, long ts, boolean terminal) implements OfOrder {}

    /**
     * A TimerExpired.
     *
     * @param source     timer, compensator, … as on the wire
     * @param appendedAt when Kafka appended it (the expired topic is created with LogAppendTime)
     */
    public record Expiry(String orderId, long deadline, long lastSeen, int attempt, String source, long appendedAt)
            implements OfOrder {

        public Key key() {
            return new Key(orderId, deadline, attempt);
        }
    }

    /**
     * A PullResult, by the expiry it answers.
     *
     * @param outcome  OK, NOT_FOUND, FAILED or SKIPPED
     * @param statusTs the event time of the status upstream answered, when the outcome is OK; else null
     * @param terminalStatus whether that status ended the order
     * @param appendedAt the record's timestamp: when Kafka appended it where the pulled topic stamps LogAppendTime (the
     *                   chaos run's), else the puller's clock when it sent it
     */
    public record Pull(
            String orderId,
            long deadline,
            int attempt,
            String outcome,
            Long statusTs,
            boolean terminalStatus,
            long appendedAt)
            implements OfOrder {

        public Key key() {
            return new Key(orderId, deadline, attempt);
        }
    }

    /** A DeadLetter: the record it stands for, its key, why, and when. */
    public record DeadLetter(RecordRef source, String key, String reason, long writtenAt) {}

    /** (orderId, deadline, attempt): what identifies an expiry, and what its pull result refers to. */
    public record Key(String orderId, long deadline, int attempt) {}
}
