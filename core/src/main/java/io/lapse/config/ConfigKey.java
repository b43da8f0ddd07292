package io.lapse.config;

import java.util.Locale;

/**
 * One configuration key with its default (empty when the default is derived from another key) and what it means.
 */
public record ConfigKey(String name, String defaultValue, String description) {

    /** The environment variable that overrides this key: {@code timer.max-attempts} → {@code LAPSE_TIMER_MAX_ATTEMPTS}. */
    public String envName() {
        return envNameOf(name);
    }

    static String envNameOf(String key) {
        return "LAPSE_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }
}
