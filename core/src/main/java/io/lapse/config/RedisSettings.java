package io.lapse.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Objects;

/** Where the timer store lives, and how to authenticate and encrypt the connection. */
public record RedisSettings(String uri, boolean cluster, String keyPrefix, RedisTls tls) {

    private static final List<String> SCHEMES = List.of("redis://", "rediss://", "redis-socket://");

    public RedisSettings {
        requireRedisUri(uri);
        Require.that(
                ConfigKeys.REDIS_KEY_PREFIX,
                !Require.given(ConfigKeys.REDIS_KEY_PREFIX, keyPrefix).isEmpty()
                        && !keyPrefix.contains("{")
                        && !keyPrefix.contains("}"),
                "must be non-empty and free of braces (they are hash tags)");
        Objects.requireNonNull(tls, "tls");
    }

    public RedisSettings(String uri, boolean cluster, String keyPrefix) {
        this(uri, cluster, keyPrefix, RedisTls.JVM_DEFAULTS);
    }

    public static RedisSettings from(ConfigSource source) {
        return source.build(() -> new RedisSettings(
                source.string(ConfigKeys.REDIS_URI),
                source.bool(ConfigKeys.REDIS_CLUSTER),
                source.string(ConfigKeys.REDIS_KEY_PREFIX),
                RedisTls.from(source)));
    }

    private static void requireRedisUri(String uri) {
        ConfigKey key = ConfigKeys.REDIS_URI;
        Require.that(
                key,
                SCHEMES.stream().anyMatch(Require.given(key, uri)::startsWith),
                "'" + Secrets.display(key.name(), uri) + "' is not a Redis URI (redis://host:port)");
        try {
            new URI(uri);
        } catch (URISyntaxException e) {
            // the reason only: the exception's message repeats the URI, password included
            throw new InvalidSetting(
                    key,
                    "is not a valid URI: " + e.getReason() + " at index " + e.getIndex()
                            + " (percent-encode reserved characters in the user name and password)");
        }
    }

    /** The URI with its user information masked, for logs and messages. */
    public String displayUri() {
        return Secrets.display(ConfigKeys.REDIS_URI.name(), uri);
    }

    @Override
    public String toString() {
        return "RedisSettings[uri=" + displayUri() + ", cluster=" + cluster + ", keyPrefix=" + keyPrefix + ", tls="
                + tls + "]";
    }
}
