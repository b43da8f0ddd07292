package io.lapse.event;

import java.util.Objects;

/**
 * What ingest learned about one order from one record.
 *
 * @param eventTime the status's event time (ms), already clamped against clock skew
 */
public record OrderUpdate(String orderId, long eventTime, Kind kind) {

    public enum Kind {
        /** A non-terminal status: the order is alive as of eventTime. */
        ACTIVE("a"),
        /** A terminal status: stop watching, and keep a tombstone so replays cannot revive it. */
        TERMINAL("t"),
        /** Upstream answered a pull with 404: stop watching, unless a newer status says otherwise. */
        GONE("g");

        private final String code;

        Kind(String code) {
            this.code = code;
        }

        /** How the arm script names the kind. */
        public String code() {
            return code;
        }
    }

    public OrderUpdate {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(kind, "kind");
    }

    public static OrderUpdate active(String orderId, long eventTime) {
        return new OrderUpdate(orderId, eventTime, Kind.ACTIVE);
    }

    public static OrderUpdate terminal(String orderId, long eventTime) {
        return new OrderUpdate(orderId, eventTime, Kind.TERMINAL);
    }

    public static OrderUpdate gone(String orderId, long eventTime) {
        return new OrderUpdate(orderId, eventTime, Kind.GONE);
    }

    /**
     * Of two updates for the same order in one batch, the one that decides: an end beats any status, otherwise the
     * newer event time wins.
     */
    public OrderUpdate mergeWith(OrderUpdate other) {
        if (kind == Kind.TERMINAL || other.kind == Kind.TERMINAL) {
            return kind == Kind.TERMINAL ? this : other;
        }
        return other.eventTime > eventTime ? other : this;
    }
}
