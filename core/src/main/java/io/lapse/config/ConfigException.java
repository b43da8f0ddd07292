package io.lapse.config;

/** Configuration that cannot work; the message names the key and what would be accepted. */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
