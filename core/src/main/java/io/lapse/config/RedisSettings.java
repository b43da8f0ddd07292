package io.lapse.config;

import java.net.URI;
import java.net.URISyntaxException;

/** Where the timer store lives, and how to authenticate and encrypt the connection. */
public record RedisSettings(String uri, boolean cluster, String keyPrefix, RedisTls tls) {

    public RedisSettings(String uri, boolean cluster, String keyPrefix) {
        this(uri, cluster, keyPrefix, RedisTls.JVM_DEFAULTS);
    }

    public static RedisSettings from(ConfigSource source) {
        String uri = source.string(ConfigKeys.REDIS_URI);
        if (!uri.startsWith("redis://") && !uri.startsWith("rediss://") && !uri.startsWith("redis-socket://")) {
            throw source.invalid(ConfigKeys.REDIS_URI, "'" + uri + "' is not a Redis URI (redis://host:port)");
        }
        try {
            new URI(uri);
        } catch (URISyntaxException e) {
            // the reason only: the exception's message repeats the URI, password included
            throw source.invalid(ConfigKeys.REDIS_URI, "is not a valid URI: " + e.getReason() + " at index "
                    + e.getIndex() + " (percent-encode reserved characters in the user name and password)");
        }
        String prefix = source.string(ConfigKeys.REDIS_KEY_PREFIX);
        if (prefix.isEmpty() || prefix.contains("{") || prefix.contains("}")) {
            throw source.invalid(ConfigKeys.REDIS_KEY_PREFIX, "must be non-empty and free of braces (they are hash tags)");
        }
        return new RedisSettings(uri, source.bool(ConfigKeys.REDIS_CLUSTER), prefix, RedisTls.from(source));
    }

    /** The URI with its user information masked, for logs and messages. */
    public String displayUri() {
        return Secrets.display(ConfigKeys.REDIS_URI.name(), uri);
    }

    @Override
    public String toString() {
        return "RedisSettings[uri=" + displayUri() + ", cluster=" + cluster + ", keyPrefix=" + keyPrefix + ", tls=" + tls
                + "]";
    }
}
