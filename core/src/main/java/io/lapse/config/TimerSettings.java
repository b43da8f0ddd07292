package io.lapse.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** Deadline rules shared by ingest, timer, puller and compensator. */
public record TimerSettings(
        Duration ttl,
        Duration repeat,
        int maxAttempts,
        TimerMode mode,
        Duration lease,
        int shards,
        int batchSize,
        Duration tombstoneRetention,
        Duration maxClockSkew,
        Set<String> terminalStatuses,
        String groupId,
        Duration maxEventAge,
        Duration watermarkSlack) {

    public TimerSettings {
        Require.positive(ConfigKeys.TIMER_TTL, ttl);
        Require.positive(ConfigKeys.TIMER_REPEAT, repeat);
        Require.atLeastOne(ConfigKeys.TIMER_MAX_ATTEMPTS, maxAttempts);
        Require.given(ConfigKeys.TIMER_MODE, mode);
        Require.positive(ConfigKeys.TIMER_LEASE, lease);
        Require.between(ConfigKeys.TIMER_SHARDS, shards, 1, 1024);
        Require.between(ConfigKeys.TIMER_BATCH_SIZE, batchSize, 1, 2000);
        Require.positive(ConfigKeys.TIMER_TOMBSTONE_RETENTION, tombstoneRetention);
        Require.nonNegative(ConfigKeys.TIMER_MAX_CLOCK_SKEW, maxClockSkew);
        Require.that(
                ConfigKeys.TIMER_TERMINAL_STATUSES,
                !Require.given(ConfigKeys.TIMER_TERMINAL_STATUSES, terminalStatuses)
                        .isEmpty(),
                "names no status");
        Require.that(
                ConfigKeys.TIMER_TERMINAL_STATUSES,
                terminalStatuses.stream().noneMatch(String::isBlank),
                "names a blank status");
        Require.nonEmpty(ConfigKeys.TIMER_GROUP_ID, groupId);
        Require.positive(ConfigKeys.TIMER_MAX_EVENT_AGE, maxEventAge);
        Require.nonNegative(ConfigKeys.TIMER_WATERMARK_SLACK, watermarkSlack);
        terminalStatuses =
                terminalStatuses.stream().map(s -> s.toUpperCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
    }

    public static TimerSettings from(ConfigSource source) {
        Duration ttl = source.duration(ConfigKeys.TIMER_TTL);
        Duration repeat = source.isSet(ConfigKeys.TIMER_REPEAT) ? source.duration(ConfigKeys.TIMER_REPEAT) : ttl;
        return source.build(() -> new TimerSettings(
                ttl,
                repeat,
                source.integer(ConfigKeys.TIMER_MAX_ATTEMPTS),
                TimerMode.parse(source),
                source.duration(ConfigKeys.TIMER_LEASE),
                source.integer(ConfigKeys.TIMER_SHARDS),
                source.integer(ConfigKeys.TIMER_BATCH_SIZE),
                source.duration(ConfigKeys.TIMER_TOMBSTONE_RETENTION),
                source.duration(ConfigKeys.TIMER_MAX_CLOCK_SKEW),
                Set.copyOf(source.list(ConfigKeys.TIMER_TERMINAL_STATUSES)),
                source.string(ConfigKeys.TIMER_GROUP_ID),
                source.duration(ConfigKeys.TIMER_MAX_EVENT_AGE),
                source.duration(ConfigKeys.TIMER_WATERMARK_SLACK)));
    }

    public boolean isTerminal(String status) {
        return terminalStatuses.contains(status.toUpperCase(Locale.ROOT));
    }
}
