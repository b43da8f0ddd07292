package io.lapse.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** Deadline rules shared by ingest, timer, puller and compensator. */
public record TimerSettings(Duration ttl, Duration repeat, int maxAttempts, TimerMode mode, Duration lease,
                            int shards, int batchSize, Duration tombstoneRetention, Duration maxClockSkew,
                            Set<String> terminalStatuses, String groupId, Duration maxEventAge,
                            Duration watermarkSlack) {

    public TimerSettings {
        terminalStatuses = terminalStatuses.stream().map(s -> s.toUpperCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
    }

    public static TimerSettings from(ConfigSource source) {
        Duration ttl = positive(source, ConfigKeys.TIMER_TTL);
        Duration repeat = source.isSet(ConfigKeys.TIMER_REPEAT) ? positive(source, ConfigKeys.TIMER_REPEAT) : ttl;
        int maxAttempts = source.integer(ConfigKeys.TIMER_MAX_ATTEMPTS);
        if (maxAttempts < 1) {
            throw source.invalid(ConfigKeys.TIMER_MAX_ATTEMPTS, "must be at least 1");
        }
        int shards = source.integer(ConfigKeys.TIMER_SHARDS);
        if (shards < 1 || shards > 1024) {
            throw source.invalid(ConfigKeys.TIMER_SHARDS, "must be between 1 and 1024");
        }
        int batchSize = source.integer(ConfigKeys.TIMER_BATCH_SIZE);
        if (batchSize < 1 || batchSize > 2000) {
            throw source.invalid(ConfigKeys.TIMER_BATCH_SIZE, "must be between 1 and 2000");
        }
        Set<String> terminal = Set.copyOf(source.list(ConfigKeys.TIMER_TERMINAL_STATUSES));
        if (terminal.isEmpty()) {
            throw source.invalid(ConfigKeys.TIMER_TERMINAL_STATUSES, "names no status");
        }
        return new TimerSettings(ttl, repeat, maxAttempts, TimerMode.parse(source),
                positive(source, ConfigKeys.TIMER_LEASE), shards, batchSize,
                positive(source, ConfigKeys.TIMER_TOMBSTONE_RETENTION), nonNegative(source, ConfigKeys.TIMER_MAX_CLOCK_SKEW),
                terminal, source.string(ConfigKeys.TIMER_GROUP_ID), positive(source, ConfigKeys.TIMER_MAX_EVENT_AGE),
                nonNegative(source, ConfigKeys.TIMER_WATERMARK_SLACK));
    }

    public boolean isTerminal(String status) {
        return terminalStatuses.contains(status.toUpperCase(Locale.ROOT));
    }

    static Duration positive(ConfigSource source, ConfigKey key) {
        Duration d = source.duration(key);
        if (d.isNegative() || d.isZero()) {
            throw source.invalid(key, "must be positive");
        }
        return d;
    }

    static Duration nonNegative(ConfigSource source, ConfigKey key) {
        Duration d = source.duration(key);
        if (d.isNegative()) {
            throw source.invalid(key, "must not be negative");
        }
        return d;
    }
}
