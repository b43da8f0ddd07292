package io.lapse.config;

import java.time.Duration;

/**
 * The checks settings records run in their constructors; each failure is an {@link InvalidSetting} naming the key.
 */
final class Require {

    private Require() {}

    static void that(ConfigKey key, boolean holds, String problem) {
        if (!holds) {
            throw new InvalidSetting(key, problem);
        }
    }

    static <T> T given(ConfigKey key, T value) {
        that(key, value != null, "must be given");
        return value;
    }

    static void nonEmpty(ConfigKey key, String value) {
        that(key, !given(key, value).isEmpty(), "must not be empty");
    }

    static void positive(ConfigKey key, Duration value) {
        that(key, given(key, value).compareTo(Duration.ZERO) > 0, "must be positive");
    }

    static void nonNegative(ConfigKey key, Duration value) {
        that(key, !given(key, value).isNegative(), "must not be negative");
    }

    static void atLeastOne(ConfigKey key, int value) {
        that(key, value >= 1, "must be at least 1");
    }

    static void between(ConfigKey key, int value, int min, int max) {
        that(key, value >= min && value <= max, "must be between " + min + " and " + max);
    }
}
