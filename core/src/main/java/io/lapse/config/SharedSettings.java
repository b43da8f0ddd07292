package io.lapse.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The settings every service of a deployment must share, since each one's work rests on another's: ingest arms
 * {@code lastSeen + timer.ttl}, the timer repeats every {@code timer.repeat}, the compensator rebuilds by both, and
 * all of them find an order's timer by {@code redis.key-prefix}, {@code timer.shards} and {@code timer.mode}. Services
 * that disagree break deadlines without an error, so the first service of a deployment declares them and every other
 * compares (see the runtime's settings check and {@code lapse settings}).
 */
public record SharedSettings(String keyPrefix, Duration ttl, Duration repeat, int shards, TimerMode mode) {

    public SharedSettings {
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(repeat, "repeat");
        Objects.requireNonNull(mode, "mode");
    }

    public static SharedSettings of(LapseConfig config) {
        TimerSettings timer = config.timer();
        return new SharedSettings(
                config.redis().keyPrefix(), timer.ttl(), timer.repeat(), timer.shards(), timer.mode());
    }

    /** By key name, as the configuration names them. */
    public Map<String, String> byKey() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put(ConfigKeys.REDIS_KEY_PREFIX.name(), keyPrefix);
        keys.put(ConfigKeys.TIMER_TTL.name(), Durations.format(ttl));
        keys.put(ConfigKeys.TIMER_REPEAT.name(), Durations.format(repeat));
        keys.put(ConfigKeys.TIMER_SHARDS.name(), Integer.toString(shards));
        keys.put(ConfigKeys.TIMER_MODE.name(), mode.name().toLowerCase(Locale.ROOT));
        return keys;
    }

    /** One line, {@code key=value} joined by spaces; none of the values holds a space or an equals sign. */
    public String encode() {
        List<String> pairs = new ArrayList<>();
        byKey().forEach((key, value) -> pairs.add(key + "=" + value));
        return String.join(" ", pairs);
    }

    /** @throws IllegalArgumentException for text that is not what {@link #encode()} writes */
    public static SharedSettings decode(String text) {
        Map<String, String> keys = new LinkedHashMap<>();
        for (String pair : text.trim().split(" +")) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("not key=value: '" + pair + "'");
            }
            keys.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        try {
            return new SharedSettings(
                    required(keys, ConfigKeys.REDIS_KEY_PREFIX),
                    Durations.parse(required(keys, ConfigKeys.TIMER_TTL)),
                    Durations.parse(required(keys, ConfigKeys.TIMER_REPEAT)),
                    Integer.parseInt(required(keys, ConfigKeys.TIMER_SHARDS)),
                    TimerMode.valueOf(required(keys, ConfigKeys.TIMER_MODE).toUpperCase(Locale.ROOT)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not declared settings: '" + text + "': " + e.getMessage(), e);
        }
    }

    private static String required(Map<String, String> keys, ConfigKey key) {
        String value = keys.get(key.name());
        if (value == null) {
            throw new IllegalArgumentException(key.name() + " is missing");
        }
        return value;
    }

    /** Each setting that differs, as "key is X here, Y declared"; empty when they agree. */
    public List<String> differencesFrom(SharedSettings declared) {
        Map<String, String> theirs = declared.byKey();
        List<String> differences = new ArrayList<>();
        byKey().forEach((key, value) -> {
            if (!value.equals(theirs.get(key))) {
                differences.add(key + " is " + value + " here, " + theirs.get(key) + " declared");
            }
        });
        return differences;
    }
}
