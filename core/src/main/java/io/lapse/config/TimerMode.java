package io.lapse.config;

import java.util.Locale;

/** How deadlines are kept in Redis. */
public enum TimerMode {
    /** One sorted set per shard, claimed with a lease: exact and durable. */
    ZSET,
    /** A key with a TTL per order, fired by keyspace notifications: late under load, kept for comparison. */
    TTL;

    static TimerMode parse(ConfigSource source) {
        String text = source.string(ConfigKeys.TIMER_MODE).toLowerCase(Locale.ROOT);
        return switch (text) {
            case "zset" -> ZSET;
            case "ttl" -> TTL;
            default -> throw source.invalid(ConfigKeys.TIMER_MODE, "'" + text + "' is neither zset nor ttl");
        };
    }
}
