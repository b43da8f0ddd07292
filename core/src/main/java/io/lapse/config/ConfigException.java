package io.lapse.config;

/**
 * Configuration that cannot work; the message names the key and what would be accepted, with the user information
 * of any URL in it masked.
 */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(Secrets.scrub(message));
    }

    public ConfigException(String message, Throwable cause) {
        super(Secrets.scrub(message), cause);
    }
}
