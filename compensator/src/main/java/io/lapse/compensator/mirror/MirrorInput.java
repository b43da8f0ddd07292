package io.lapse.compensator.mirror;

import io.lapse.event.OrderUpdate;
import java.util.Set;

/**
 * One thing the compensator learns about an order from its input topics: a pushed status, a pulled one, an expiry
 * published, or a silence its pushes had; or how far the push folder has handed the pushes over ({@link PushesRead}).
 */
public sealed interface MirrorInput
        permits MirrorInput.Status,
                MirrorInput.Pulled,
                MirrorInput.Resumed,
                MirrorInput.Silence,
                MirrorInput.PushesRead,
                Fired {

    String orderId();

    /** @see OrderState#next */
    OrderState applyTo(OrderState current);

    /** A push, read by the same rules as ingest's. */
    record Status(OrderUpdate update) implements MirrorInput {

        @Override
        public String orderId() {
            return update.orderId();
        }

        @Override
        public OrderState applyTo(OrderState current) {
            return OrderState.next(current, update);
        }
    }

    /**
     * The push folder saw the order push at {@code endedBy} after more than the ttl without a push: the silence may
     * not have fired, if Redis lost its deadline or the watermark held it back until the push re-armed the order. The
     * mirror decides ({@link OrderState#unfiredSilence}); the order's state itself does not change: the push that ended
     * the silence comes as a status of its own.
     *
     * @param lastSeen the push the silence began with; {@link #UNKNOWN} when the folder read none before: then the
     *                 newest status the mirror knows ({@link Resumed})
     */
    record Silence(String orderId, long lastSeen, long endedBy) implements MirrorInput {

        public static final long UNKNOWN = 0;

        @Override
        public OrderState applyTo(OrderState current) {
            return current;
        }
    }

    /**
     * The first status the push folder hands over of an order it had read no push of (the order's first push after a
     * round without one, or the first the folder read after a restart or a rebalance): the push at {@code endedBy},
     * the first it read, may have ended a silence since the newest status the mirror knows. One record rather than a
     * status and a {@link Silence}: every order starts so after a restart.
     */
    record Resumed(OrderUpdate update, long endedBy) implements MirrorInput {

        @Override
        public String orderId() {
            return update.orderId();
        }

        @Override
        public OrderState applyTo(OrderState current) {
            return OrderState.next(current, update);
        }

        /** The silence it may have ended. */
        public Silence silence() {
            return new Silence(update.orderId(), Silence.UNKNOWN, endedBy);
        }
    }

    /**
     * A pull result's status (OK, or upstream's NOT_FOUND), read by the same rules as ingest's. Apart from pushes,
     * because a pulled status can end a silence that no push ended, which the push folder never sees.
     */
    record Pulled(OrderUpdate update) implements MirrorInput {

        @Override
        public String orderId() {
            return update.orderId();
        }

        @Override
        public OrderState applyTo(OrderState current) {
            return OrderState.next(current, update);
        }
    }

    /**
     * Not about an order: the push folder's word, written to every partition of the mirror with each hand-over, that
     * every push appended to these partitions of the push topic before {@code upTo} (wall clock, ms) has been handed
     * over, in this transaction or before it.
     *
     * @param topicPartitions the push topic's partition count as the folder saw it
     */
    record PushesRead(long upTo, int topicPartitions, Set<Integer> partitions) implements MirrorInput {

        public PushesRead {
            partitions = Set.copyOf(partitions);
            if (topicPartitions < 1 || partitions.stream().anyMatch(p -> p < 0 || p >= topicPartitions)) {
                throw new IllegalArgumentException(
                        "partitions " + partitions + " are not all among the topic's " + topicPartitions);
            }
        }

        /** None: the record is about the push topic, not an order. */
        @Override
        public String orderId() {
            return "";
        }

        @Override
        public OrderState applyTo(OrderState current) {
            return current;
        }
    }
}
